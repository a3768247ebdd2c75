#!/usr/bin/python3
"""Two eipc binaries on the same whole runs, interleaved on a quiet machine: did a change buy time?

    analysis/binary_pairs.py OLD NEW [--cases grasp_low_2t,grasp_low_1t,finray_2t] [--repeats 5]
        [--max-load 0.5] [--wait 300]

OLD and NEW are eipc executables (copy the old one out of build/ before rebuilding). Each
repeat runs every case once with each binary, the order alternated from repeat to repeat, and
each run starts once the 1-minute load average is below --max-load (waiting up to --wait s,
then it runs anyway; analysis/quiet_machine.py). Time = the run's own `wall_seconds` (its steps,
not the scene load). Prints per case the medians [ranges] of both and of the pairs' NEW/OLD
ratios, with the loads the runs started at: on a shared machine only ratios taken in one window
compare (docs/performance.md). Debian's /usr/bin/python3.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "analysis"))
from quiet_machine import load_text, wait_for_load  # noqa: E402

GRASP = ["scenarios/bubble_grasp/teddy.json", "--dt", "0.02"]
CASES = {
    "grasp_low_2t": GRASP + ["--embedding", "low", "--threads", "2"],
    "grasp_low_1t": GRASP + ["--embedding", "low", "--threads", "1"],
    "grasp_full_2t": GRASP + ["--embedding", "full", "--threads", "2"],
    "finray_2t": ["scenarios/finray_plate_rack.json", "--dt", "0.01", "--threads", "2"],
}


def wall(binary, args, out, max_load, wait):
    """(the run's wall_seconds, the load average it started at)."""
    load = wait_for_load(max_load, wait)
    run = subprocess.run([binary, "run", *args, "--json", "--out", out], cwd=ROOT, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"binary_pairs: {binary} run {' '.join(args)} failed (exit {run.returncode}): {run.stderr.strip()}")
    return json.loads(run.stdout)["wall_seconds"], load


def spread(values):
    return f"{statistics.median(values):.3f} [{min(values):.3f}-{max(values):.3f}]"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("--cases", default="grasp_low_2t,grasp_low_1t,finray_2t", help=f"of {', '.join(CASES)}")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--max-load", type=float, default=0.5)
    p.add_argument("--wait", type=float, default=300)
    args = p.parse_args()
    cases = args.cases.split(",")
    for name in cases:
        if name not in CASES:
            sys.exit(f"binary_pairs: unknown case {name!r} (known: {', '.join(CASES)})")
    for binary in (args.old, args.new):
        if not os.access(binary, os.X_OK):
            sys.exit(f"binary_pairs: {binary}: not an executable")
    runs = {name: {"old": [], "new": [], "loads": []} for name in cases}
    with tempfile.TemporaryDirectory(prefix="eipc-pairs-") as tmp:
        for repeat in range(args.repeats):
            order = ("old", "new") if repeat % 2 == 0 else ("new", "old")
            for name in cases:
                for which in order:
                    seconds, load = wall(getattr(args, which), CASES[name], os.path.join(tmp, "run.h5"),
                                         args.max_load, args.wait)
                    runs[name][which].append(seconds)
                    runs[name]["loads"].append(load)
                print(f"repeat {repeat + 1}: {name} old {runs[name]['old'][-1]:.3f} s, new {runs[name]['new'][-1]:.3f} s",
                      flush=True)
    for name, r in runs.items():
        ratios = [n / o for n, o in zip(r["new"], r["old"])]
        print(f"{name}: old {spread(r['old'])} s, new {spread(r['new'])} s, new/old {spread(ratios)}, "
              f"{len(ratios)} pairs, loads {load_text(min(r['loads']))}-{load_text(max(r['loads']))}")


if __name__ == "__main__":
    main()
