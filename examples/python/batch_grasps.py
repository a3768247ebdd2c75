#!/usr/bin/python3
"""Batch data generation: N randomised closed-loop grasps of the teddy (bear
pose, friction, squeeze target) in parallel processes, one trajectory per
episode and an index with the parameters, the outcome and the certification
(docs/python.md). Resumable: run the same command again after a kill and only
the episodes missing from the index run.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/batch_grasps.py --out grasps --episodes 16 --jobs 2

Writes OUT/batch.json (the settings), OUT/episode_NNNN.h5 (+ .xdmf) and
OUT/index.jsonl (one JSON object per finished episode, appended as they finish).
"""
import argparse
import concurrent.futures
import json
import math
import multiprocessing
import os
import pathlib
import sys
import time

import numpy as np

from closed_loop_grasp import TEDDY, grasp

SETTINGS = ("seed", "duration", "dt", "embedding", "lift")


def episode_parameters(seed, episode):
    """The episode's random parameters (the same on every resume)."""
    rng = np.random.default_rng([seed, episode])
    return {
        "yaw_deg": float(rng.uniform(-10, 10)),         # the bear turned about z
        "offset": [float(rng.uniform(-0.003, 0.003)), float(rng.uniform(-0.003, 0.003))],  # and shifted (m)
        "friction": float(rng.uniform(0.6, 1.2)),
        "force": float(rng.uniform(12, 30)),            # squeeze target (N)
    }


def run_episode(out, episode, params, settings):
    import eipc  # in the worker process

    path = out / f"episode_{episode:04d}.h5"
    record = {"episode": episode, "params": params, "trajectory": path.name}
    overrides = [
        f"bodies.0.transform.rotation_deg=[90,0,{params['yaw_deg']!r}]",
        f"bodies.0.transform.translation=[{params['offset'][0]!r},{params['offset'][1]!r},0.0005]",
        f"contact.friction={params['friction']!r}",
    ]
    start = time.monotonic()
    try:
        sim = eipc.Simulation(TEDDY, dt=settings["dt"], duration=settings["duration"],
                              embedding=settings["embedding"], threads=1, set=overrides)
        sim.write_trajectory(str(path))
        record["outcome"] = grasp(sim, force=params["force"], lift=settings["lift"])
        record["status"] = "complete"
    except eipc.InputError as e:  # e.g. this pose starts intersecting a finger
        record.update(status="input_error", error=str(e), outcome=None)
    except eipc.SolverFailure as e:  # the trajectory so far is kept, marked incomplete
        record.update(status="solver_failure", error=str(e), outcome=None)
    record["certified"] = eipc.certify(str(path), threads=1)["ok"] if path.exists() else None
    record["wall_seconds"] = time.monotonic() - start
    return record


def read_index(index):
    """Finished episodes by number; a line cut short by a kill is ignored (that episode runs again)."""
    done = {}
    if index.exists():
        for line in index.read_text().splitlines():
            try:
                record = json.loads(line)
                done[record["episode"]] = record
            except (json.JSONDecodeError, KeyError, TypeError):
                pass
    return done


def progress(done, total, resumed, started):
    width = 30
    filled = int(width * done / total) if total else width
    rate = (done - resumed) / max(time.monotonic() - started, 1e-9)
    eta = (total - done) / rate if rate > 0 else math.inf
    eta_text = f"{eta:5.0f} s left" if math.isfinite(eta) else "   ? s left"
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} episodes ({resumed} resumed), {eta_text}")
    sys.stderr.flush()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True, type=pathlib.Path, help="output folder")
    p.add_argument("--episodes", type=int, default=16)
    p.add_argument("--jobs", type=int, default=os.cpu_count(), help="parallel processes")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--duration", type=float, default=2.0, help="simulated seconds per episode")
    p.add_argument("--dt", type=float, default=0.01)
    p.add_argument("--embedding", default="low")
    p.add_argument("--lift", type=float, default=0.1, help="how far the fingers rise (m)")
    a = p.parse_args(argv)
    settings = {k: getattr(a, k) for k in SETTINGS}
    a.out.mkdir(parents=True, exist_ok=True)
    batch = a.out / "batch.json"
    if batch.exists() and json.loads(batch.read_text()) != settings:
        sys.stderr.write(f"error: {batch}: made with other settings ({batch.read_text().strip()}); "
                         "use another --out or the same settings\n")
        return 2
    batch.write_text(json.dumps(settings) + "\n")

    index = a.out / "index.jsonl"
    done = read_index(index)
    todo = [e for e in range(a.episodes) if e not in done]
    resumed = a.episodes - len(todo)
    started = time.monotonic()
    progress(resumed, a.episodes, resumed, started)
    # fork: the workers start at once and need nothing from this process but the arguments.
    with concurrent.futures.ProcessPoolExecutor(max(1, a.jobs), mp_context=multiprocessing.get_context("fork")) as pool, \
            index.open("a") as log:
        futures = [pool.submit(run_episode, a.out, e, episode_parameters(a.seed, e), settings) for e in todo]
        for future in concurrent.futures.as_completed(futures):
            record = future.result()
            log.write(json.dumps(record) + "\n")  # one line per episode: a kill loses at most the running ones
            log.flush()
            os.fsync(log.fileno())
            done[record["episode"]] = record
            progress(len([e for e in done if e < a.episodes]), a.episodes, resumed, started)
    sys.stderr.write("\n")
    records = [done[e] for e in range(a.episodes)]
    lifted = sum(1 for r in records if r["outcome"] and r["outcome"]["lifted"])
    certified = sum(1 for r in records if r["certified"])
    print(json.dumps({"episodes": a.episodes, "resumed": resumed, "lifted": lifted, "certified": certified,
                      "index": str(index)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
