#!/usr/bin/env python3
"""`eipc certify --continuous` beside ipc-toolkit on the same frame pairs, in one run.

    .venv/bin/python analysis/certify_vs_ipctk.py DIR... [--rounds 3] [--max-load 0.5]
        [--wait 600] [--eipc build/bin/eipc] [--out results/certify-vs-ipctk.md] [--json ROWS.json]

Each DIR holds two frames (any format `eipc certify` reads; ipctk's side reads them with
meshio, so PLY/OBJ/STL/VTK). Per round and DIR, interleaved, each in a fresh process after
the 1-minute load average is below --max-load (or --wait seconds passed; the load is
recorded either way): eipc's whole command (reading, both frame checks, the motion: every
pair decided exactly), and ipctk's conservative collision-free step and its yes/no
`is_step_collision_free` (each timed around the call, the mesh already built; ipctk's
default broad phase and Tight-Inclusion CCD). Prints and writes a Markdown table of
medians with [min-max]; --json writes every run's numbers (eipc's peak memory among them),
which ci/perf-targets reads. Runs under the project's .venv (ipctk, meshio; ci/setup-deps).
docs/certify.md, "Against ipc-toolkit".
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from quiet_machine import load_text, wait_for_load  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# ipctk in its own process, as eipc runs in its own: no warm caches shared between them.
IPCTK = r"""
import json, sys, time
import meshio, numpy as np, ipctk
paths = sys.argv[1:3]
meshes = [meshio.read(p) for p in paths]
faces = np.asarray(meshes[0].cells_dict["triangle"], dtype=np.int32)
v0, v1 = (np.asfortranarray(m.points, dtype=np.float64) for m in meshes)
mesh = ipctk.CollisionMesh(v0, ipctk.edges(faces), faces)
t = time.perf_counter(); step = ipctk.compute_collision_free_stepsize(mesh, v0, v1); t_step = time.perf_counter() - t
t = time.perf_counter(); free = ipctk.is_step_collision_free(mesh, v0, v1); t_free = time.perf_counter() - t
print(json.dumps({"triangles": len(faces), "step": step, "step_seconds": t_step, "free": bool(free),
                  "free_seconds": t_free, "version": getattr(ipctk, "__version__", "")}))
"""


def frames_of(directory):
    names = sorted(n for n in os.listdir(directory) if not n.startswith(".") and
                   os.path.splitext(n)[1].lower() in (".ply", ".obj", ".stl", ".vtk", ".vtu", ".vtp"))
    if len(names) != 2:
        sys.exit(f"error: {directory}: expected two frame files, found {len(names)}")
    return [os.path.join(directory, n) for n in names]


def run_eipc(eipc, directory):
    # Reaped with wait4 for the child's own peak memory (files for its output: no pipe to drain).
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        child = subprocess.Popen([eipc, "certify", directory, "--continuous", "--json"], stdout=out, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if code not in (0, 1):
            sys.exit(f"error: eipc certify {directory} exited {code}: {err.read().strip()}")
        report = json.load(out)
    motion = report["motions"][0]
    return {"wall": wall, "max_rss_mb": usage.ru_maxrss / 1024, "collisions": motion["collisions"],
            "inconclusive": motion["inconclusive"],
            "candidates": motion["candidates"]["vertex_face"] + motion["candidates"]["edge_edge"],
            "exact_pairs": motion["exact_pairs"]}


def run_ipctk(frames):
    r = subprocess.run([sys.executable, "-c", IPCTK] + frames, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"error: ipctk on {frames[0]}: {r.stderr.strip().splitlines()[-1] if r.stderr else 'failed'}")
    return json.loads(r.stdout)


def spread(values, fmt="{:.2f}"):
    return f"{fmt.format(statistics.median(values))} [{fmt.format(min(values))}-{fmt.format(max(values))}]"


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("dirs", nargs="+")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--max-load", type=float, default=0.5)
    p.add_argument("--wait", type=float, default=600, help="seconds to wait for --max-load before a run")
    p.add_argument("--eipc", default=os.path.join(ROOT, "build", "bin", "eipc"))
    p.add_argument("--out", help="also write the table here")
    p.add_argument("--json", help="also write every run's numbers here")
    a = p.parse_args(argv)
    rows = {d: {"eipc": [], "ipctk": [], "loads": []} for d in a.dirs}
    for round_ in range(a.rounds):
        for d in a.dirs:
            for engine in ("eipc", "ipctk") if round_ % 2 == 0 else ("ipctk", "eipc"):  # alternate who goes first
                load = wait_for_load(a.max_load, a.wait)
                rows[d]["loads"].append(load)
                rows[d][engine].append(run_eipc(a.eipc, d) if engine == "eipc" else run_ipctk(frames_of(d)))
                print(f"[{round_ + 1}/{a.rounds}] {d} {engine} (load {load_text(load)})", file=sys.stderr)
    lines = ["| frames | triangles | candidates | colliding pairs (eipc, exact) | exact-path pairs | "
             "eipc certify --continuous, whole command [s] | ipctk step [s] | ipctk yes/no [s] | "
             "eipc / ipctk step | loads |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for d, r in rows.items():
        e, i = r["eipc"], r["ipctk"]
        ratio = [x["wall"] / y["step_seconds"] for x, y in zip(e, i)]
        lines.append(f"| {os.path.basename(os.path.normpath(d))} | {i[0]['triangles']:,} | {e[0]['candidates']:,} | "
                     f"{e[0]['collisions']:,} | {e[0]['exact_pairs']:,} | {spread([x['wall'] for x in e])} | "
                     f"{spread([y['step_seconds'] for y in i])} (step {i[0]['step']:.3g}) | "
                     f"{spread([y['free_seconds'] for y in i])} ({'free' if i[0]['free'] else 'not free'}) | "
                     f"{spread(ratio)} | {load_text(min(r['loads']))}-{load_text(max(r['loads']))} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(f"Made by `{' '.join(['.venv/bin/python', 'analysis/certify_vs_ipctk.py'] + argv)}` on "
                    f"{os.cpu_count()} cores; medians [min-max] of {a.rounds} interleaved rounds, load averages "
                    f"before each run in the last column.\n\n" + text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
