#!/usr/bin/python3
"""Cost of stepping from Python: the teddy grasp stepped by `eipc run` and by
the module (one step() call per step, every body's positions read after each
step, the same trajectory written), interleaved so that both see the same
machine (docs/python.md). Every run is a fresh process, so that neither profits
from memory and caches warmed by the runs before it.

Two ratios python / eipc run, medians over the pairs:
- wall: the wall time from the first step to the last (eipc run's own
  `wall_seconds`; the same clock around the Python loop);
- cpu: the CPU time (user + sys) of the whole process minus that of the same
  process making one step only, i.e. the cost of the remaining steps; less
  sensitive than wall time to other work on a shared machine.

    PYTHONPATH=build/python /usr/bin/python3 solver/python/benchmark.py --eipc build/bin/eipc [--pairs 15]
"""
import argparse
import json
import os
import pathlib
import resource
import statistics
import subprocess
import sys
import tempfile
import time

TEDDY = pathlib.Path(__file__).resolve().parents[2] / "scenarios" / "bubble_grasp" / "teddy.json"


def measured(command):
    """(stdout, CPU seconds of the child process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(command, check=True, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return run.stdout, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cli_run(binary, args, duration, out):
    stdout, cpu = measured([binary, "run", str(TEDDY), *args, "--out", str(out), "--json",
                            *(["--duration", str(duration)] if duration else [])])
    return json.loads(stdout)["wall_seconds"], cpu


def python_run(options, duration, out):
    stdout, cpu = measured([sys.executable, __file__, "--child", json.dumps({**options, "duration": duration}),
                            str(out)])
    return float(stdout), cpu


def child(options, out):
    import eipc

    sim = eipc.Simulation(TEDDY, **json.loads(options))
    sim.write_trajectory(out)
    bodies = sim.bodies
    start = time.perf_counter()
    while not sim.finished:
        sim.step()
        for body in bodies:
            sim.positions(body)
    print(time.perf_counter() - start)
    return 0


def main():
    if sys.argv[1:2] == ["--child"]:
        return child(*sys.argv[2:])
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--eipc", required=True, help="the eipc binary of the same build")
    p.add_argument("--pairs", type=int, default=15)
    p.add_argument("--dt", type=float, default=0.02)
    p.add_argument("--embedding", default="low")
    p.add_argument("--threads", type=int, default=1)
    a = p.parse_args()
    cli_args = ["--dt", str(a.dt), "--embedding", a.embedding, "--threads", str(a.threads)]
    options = dict(dt=a.dt, embedding=a.embedding, threads=a.threads)
    wall, cpu = [], []
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp)
        for i in range(a.pairs):
            runs = [lambda: cli_run(a.eipc, cli_args, None, out / "cli.h5"),
                    lambda: python_run(options, None, out / "py.h5")]
            one_step = [lambda: cli_run(a.eipc, cli_args, a.dt, out / "cli1.h5"),
                        lambda: python_run(options, a.dt, out / "py1.h5")]
            # Alternate which goes first so that a drift in the machine's speed favours neither.
            order = [0, 1] if i % 2 == 0 else [1, 0]
            full, single = {}, {}
            for k in order:
                full[k] = runs[k]()
                single[k] = one_step[k]()
            (cw, cc), (pw, pc) = full[0], full[1]
            cc -= single[0][1]
            pc -= single[1][1]
            wall.append(pw / cw)
            cpu.append(pc / cc)
            print(f"pair {i + 1}: wall eipc run {cw:.3f} s, python {pw:.3f} s, ratio {pw / cw:.3f}; "
                  f"cpu of the steps eipc run {cc:.3f} s, python {pc:.3f} s, ratio {pc / cc:.3f}", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    print(f"median ratio python / eipc run over {a.pairs} pairs (teddy grasp, {a.embedding}, h = {a.dt}, "
          f"{a.threads} thread(s)): wall {statistics.median(wall):.3f}, cpu {statistics.median(cpu):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
