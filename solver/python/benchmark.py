#!/usr/bin/python3
"""Cost of stepping from Python: the teddy grasp stepped by `eipc run` and by
the module (one step() call per step, reading every body's positions after
each step, the same trajectory written), interleaved so that both see the same
machine; prints each pair and the median ratio python / eipc run of the wall
time spent stepping (docs/python.md).

    PYTHONPATH=build/python /usr/bin/python3 solver/python/benchmark.py --eipc build/bin/eipc [--pairs 7]
"""
import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import eipc

TEDDY = pathlib.Path(__file__).resolve().parents[2] / "scenarios" / "bubble_grasp" / "teddy.json"


def cli_seconds(binary, args, out):
    run = subprocess.run([binary, "run", str(TEDDY), *args, "--out", str(out), "--json"], check=True,
                         capture_output=True, text=True)
    return json.loads(run.stdout)["wall_seconds"]  # from the first step to the last, frames written


def python_seconds(options, out):
    sim = eipc.Simulation(TEDDY, **options)
    sim.write_trajectory(str(out))
    bodies = sim.bodies
    start = time.perf_counter()
    while not sim.finished:
        sim.step()
        for body in bodies:
            sim.positions(body)
    return time.perf_counter() - start


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--eipc", required=True, help="the eipc binary of the same build")
    p.add_argument("--pairs", type=int, default=7)
    p.add_argument("--dt", type=float, default=0.02)
    p.add_argument("--embedding", default="low")
    p.add_argument("--threads", type=int, default=0)
    a = p.parse_args()
    cli_args = ["--dt", str(a.dt), "--embedding", a.embedding, "--threads", str(a.threads)]
    options = dict(dt=a.dt, embedding=a.embedding, threads=a.threads)
    ratios = []
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp)
        for i in range(a.pairs):
            # Alternate which goes first so that a drift in the machine's speed does not favour one.
            if i % 2 == 0:
                c = cli_seconds(a.eipc, cli_args, out / "cli.h5")
                py = python_seconds(options, out / "py.h5")
            else:
                py = python_seconds(options, out / "py.h5")
                c = cli_seconds(a.eipc, cli_args, out / "cli.h5")
            ratios.append(py / c)
            print(f"pair {i + 1}: eipc run {c:.3f} s, python {py:.3f} s, ratio {py / c:.3f}", flush=True)
    print(f"median ratio python / eipc run: {statistics.median(ratios):.3f} over {a.pairs} pairs "
          f"(teddy grasp, {a.embedding}, h = {a.dt})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
