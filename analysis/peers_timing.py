#!/usr/bin/python3
"""Timings that can be believed: every engine in one interleaved session on a quiet machine.

    /usr/bin/python3 analysis/peers_timing.py [--scenes cube_squeeze,bubble_grasp_teddy,finray_plate_rack]
        [--engines eipc,mujoco,mujoco-flex,drake,bullet] [--repeats 3] [--max-load 0.5] [--wait 3600]
        [--build build] [--work /tmp/eipc-timing] [--searches results] [--out results]

Runs per scene each engine in the configuration its search kept by the one tuning rule
(SEARCHES/peers_search/<scene>_<engine>.md, analysis/peers_search.py; when no configuration
succeeds, the rule's closest, marked with what it misses; an engine not searched on a scene is not
timed there, except eipc, which then runs the scene's own settings), and eipc's also on one
thread (--threads 1). Each
repeat runs every one of them once, in an order rotated by one each repeat, so a slow drift
of the machine affects all engines alike. Before each run the script waits until the 1-minute
load average is below --max-load (it gives up after --wait seconds: the machine is not quiet,
nothing is written, exit 3); the load is recorded. Bad arguments: exit 2. A run is redone when the load was not below
--max-load when it started, or when a single-threaded run's CPU time is below 90% of its wall
time (something else had the core; --min-cpu-share), up to --max-redo times. Writes OUT/peers_timing.md (median wall, loop and CPU
seconds with their ranges over the repeats: wall and CPU of the whole process, loop the run's own
`wall_seconds`, its stepping loop without the scene's reading or the engine's model build) and OUT/peers_timing/runs.csv (every run, redone ones too).
"""
import argparse
import csv
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers import ROOT, SCENES  # noqa: E402
from peers_search import command, kept_in_table, spread, timed_run  # noqa: E402
from quiet_machine import load_text, wait_for_load  # noqa: E402

ENGINES = ("eipc", "mujoco", "mujoco-flex", "drake", "bullet")
TIMED = ("cube_squeeze",) + tuple(SCENES)  # the cube: a quick check of the machinery itself
MAX_WALL = 900  # s per run, as the searches


def fail(message, code=2):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(code)


def candidates(build, scene, engines, results):
    """(engine, configuration, the rule's verdict, command, single-threaded) of every run timed on a
    scene: each engine's kept configuration from its search table (results/peers_search, the one
    tuning rule; when none succeeds, the rule's closest, labelled by what it misses), eipc also on
    one thread; eipc without a search on the scene runs the scene's own settings."""
    out = []
    for engine in engines:
        kept = kept_in_table(scene, engine, results)
        if kept is None and engine != "eipc":
            continue  # not searched on this scene
        if kept is None:
            kept = dict(opts={}, label="the scene's own", missed=None)
        verdict = ("not searched" if kept["missed"] is None else
                   f"fails: misses {kept['missed']}" if kept["missed"] else "succeeds")
        cmd = command(build, scene, engine, kept["opts"], MAX_WALL)
        out.append((engine, kept["label"], verdict, cmd, engine != "eipc"))
        if engine == "eipc":
            out.append(("eipc --threads 1", kept["label"], verdict, cmd + ["--threads", "1"], True))
    return out


def loop_seconds(summary_path):
    """The run's own `wall_seconds` (its stepping loop, without reading the scene or building the engine's
    model), from the `--json` summary; empty when the run wrote none."""
    try:
        return f"{json.load(open(summary_path))['wall_seconds']:.3f}"
    except (OSError, ValueError, KeyError):
        return ""


def wait_quiet(max_load, wait_seconds):
    load = wait_for_load(max_load, wait_seconds, poll_seconds=15)
    if load >= max_load:
        fail(f"the load average stayed at or above {max_load} (now {load:.2f}); "
             "timings need a quiet machine: nothing written", code=3)
    return load


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenes", default=",".join(TIMED))
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--searches", default=os.path.join(ROOT, "results"),
                    help="where the search tables are (SEARCHES/peers_search/<scene>_<engine>.md)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--max-load", type=float, default=0.5)
    ap.add_argument("--wait", type=float, default=3600, help="longest wait for a quiet machine (s)")
    ap.add_argument("--max-redo", type=int, default=5, help="redos of one run before giving up")
    ap.add_argument("--min-cpu-share", type=float, default=0.9,
                    help="a single-threaded run whose CPU time is below this share of its wall time is redone")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--work", default="/tmp/eipc-timing")
    ap.add_argument("--out", default=os.path.join(ROOT, "results"))
    args = ap.parse_args()
    if args.repeats < 3:
        fail(f"--repeats {args.repeats}: at least 3 are needed (medians with ranges)")
    for name in args.scenes.split(","):
        if name not in TIMED:
            fail(f"--scenes: unknown scene '{name}' (known: {', '.join(TIMED)})")
    engines = args.engines.split(",")
    for engine in engines:
        if engine not in ENGINES:
            fail(f"--engines: unknown engine '{engine}' (known: {', '.join(ENGINES)})")
    os.makedirs(args.work, exist_ok=True)
    runs = []
    for name in args.scenes.split(","):
        todo = candidates(args.build, name, engines, args.searches)
        for r in range(args.repeats):
            for k in range(len(todo)):
                label, _, _, cmd, single = todo[(k + r) % len(todo)]  # rotated order: engines interleaved
                for attempt in range(args.max_redo + 1):
                    load = wait_quiet(args.max_load, args.wait)
                    path = os.path.join(args.work, f"{name}_{label.replace(' ', '_')}_{r}.h5")
                    print(f"+ [{name} repeat {r + 1}, load {load_text(load)}] {' '.join(cmd)}", file=sys.stderr, flush=True)
                    with open(path[:-3] + ".json", "w") as summary:
                        code, wall, cpu, _ = timed_run(cmd + ["--out", path], summary)
                    redo = load >= args.max_load or (single and cpu < args.min_cpu_share * wall)
                    runs.append(dict(scene=name, engine=label, repeat=r + 1, load_before=load_text(load), exit=code,
                                     wall=f"{wall:.3f}", loop=loop_seconds(path[:-3] + ".json"), cpu=f"{cpu:.3f}",
                                     redone="yes" if redo else ""))
                    if not redo:
                        break
                else:
                    fail(f"{name}, {label}: redone {args.max_redo} times (load or CPU share); the machine is not "
                         "quiet: nothing written", code=3)

    out_dir = os.path.join(args.out, "peers_timing")
    os.makedirs(out_dir, exist_ok=True)
    keys = ["scene", "engine", "repeat", "load_before", "exit", "wall", "loop", "cpu", "redone"]
    with open(os.path.join(out_dir, "runs.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, keys)
        w.writeheader()
        w.writerows(runs)
    lines = ["# Wall and CPU time per engine, each in the configuration its search kept (interleaved, quiet machine)", "",
             f"Made by `/usr/bin/python3 analysis/peers_timing.py --scenes {args.scenes} --engines {args.engines} "
             f"--repeats {args.repeats}{'' if args.max_load == 0.5 else f' --max-load {args.max_load}'}` on "
             f"{time.strftime('%Y-%m-%d')}: {args.repeats} "
             f"repeats, engines interleaved, each run started at 1-minute load average < {args.max_load} "
             "(runs/redos: peers_timing/runs.csv). Configuration: the one the engine's search kept by the one "
             "tuning rule (results/peers_search/<scene>_<engine>.md; docs/peers.md \"One tuning rule\"); where "
             "none succeeds, the rule's closest, with what it misses. Median [min–max]. Wall: the whole process, "
             "as a user waits for it (reading the scene, building the engine's model, the loop, writing the "
             "trajectory); loop: the run's own `wall_seconds`, its stepping loop only; CPU: the whole process, "
             "user + system; wall / eipc: the medians' ratio to eipc's (two threads) on the scene.", "",
             "| scene | engine | configuration | rule | exit codes | wall [s] | wall / eipc | loop [s] | CPU [s] | load before (max) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for name in args.scenes.split(","):
        eipc_wall = None
        for label, config, verdict, _, _ in candidates(args.build, name, engines, args.searches):
            kept = [r for r in runs if r["scene"] == name and r["engine"] == label and not r["redone"]]
            wall, loop, cpu = ([float(r[k]) for r in kept if r[k]] for k in ("wall", "loop", "cpu"))
            eipc_wall = statistics.median(wall) if label == "eipc" else eipc_wall
            ratio = f"{statistics.median(wall) / eipc_wall:.1f}" if eipc_wall else "–"
            codes = ",".join(sorted({str(r["exit"]) for r in kept}))
            lines.append(f"| {name} | {label} | {config} | {verdict} | {codes} | {spread(wall)} | {ratio} | "
                         f"{spread(loop) if loop else '–'} | {spread(cpu)} | "
                         f"{max(float(r['load_before']) for r in kept):.2f} |")
    with open(os.path.join(args.out, "peers_timing.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(os.path.join(args.out, "peers_timing.md"))


if __name__ == "__main__":
    main()
