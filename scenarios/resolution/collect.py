"""One resolution-study run as JSON: `eipc run --json` summary, process CPU time,
per-step statistics from the trajectory and the problem size.
Usage: collect.py SUMMARY.json CPU_FILE RUN.h5 RUN.log MESH EMBEDDING LOADAVG EXIT_CODE MAX_WALL
A run stopped at MAX_WALL seconds (EXIT_CODE != 0) is recorded with its CPU time only."""
import json
import re
import sys

import h5py
import numpy as np

summary_path, cpu_path, h5_path, log_path, mesh, embedding, load, code, max_wall = sys.argv[1:10]
user, system = (float(v) for v in open(cpu_path).read().split()[-2:])
if code != "0":
    json.dump({"mesh": mesh, "embedding": embedding, "stopped_after_wall_seconds": float(max_wall),
               "cpu_seconds": user + system, "load_average_at_start": float(load)}, sys.stdout, indent=1)
    print()
    sys.exit(0)
summary = json.load(open(summary_path))
with h5py.File(h5_path, "r") as f:
    ball = f["bodies/ball"]
    fr = f["frames"]
    steps = fr["step"][:]
    assert np.all(np.diff(steps) == 1), "frames must be stored every step"
    tris = ball["surface_triangles"][:]
    size = {
        "fine_vertices": int(ball["rest_vertices"].shape[0]),
        "fine_tets": int(ball["tets"].shape[0]),
        "surface_vertices": int(np.unique(tris).size),
        "surface_triangles": int(tris.shape[0]),
    }
    per_step = {k: fr[k][1:].tolist() for k in ("wall_seconds", "newton_iterations", "active_pairs", "min_distance")}
nodes = size["fine_vertices"]
match = re.search(r"with (\d+) nodes, (\d+) tets", open(log_path).read())
if embedding != "full":
    nodes = int(match.group(1))
    size["embedding_tets"] = int(match.group(2))
size["dofs"] = 3 * nodes
json.dump({"mesh": mesh, "embedding": embedding, "size": size, "summary": summary,
           "cpu_seconds": user + system, "load_average_at_start": float(load), "per_step": per_step},
          sys.stdout, indent=1)
print()
