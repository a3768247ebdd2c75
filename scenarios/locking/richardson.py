#!/usr/bin/python3
"""The teddy's hold force in full space on self-similar refinements, with Richardson extrapolation (issue 60, item 1).

    scenarios/locking/richardson.py [--runs NU:LEVEL[:BUBBLE_LEVEL],...] [--work DIR] [--eipc build/bin/eipc]
        [--out results/locking_richardson]

Level L: Drake's teddy (teddy.vtk, 410 nodes) and the bubble (bubble.vtk, 67 nodes) each
red-refined L times (scenarios/generators/red_refine.py: every tet split 1:8, the
surface kept as level 0's triangles, so the geometry is the same at every level). Each
run is the bubble grasp (scenarios/bubble_grasp/teddy.json) in full space at h = 0.05 s
(h = 0.05 gives h = 0.01's hold force to about 0.1%: results/locking_reference_dt0.05.md)
on one thread under `nice -n 19`, with the teddy's Poisson ratio NU; the hold force is
reference_series.py's (x force on bubble_left from the teddy, mean over 3 <= t <= 4 s).
A run NU:L:B keeps the bubbles at level B. Each run's result goes to
OUT/nuNU_levelL[_bubbleB].json as soon as it is done, and a rerun skips runs whose file
exists (resumable). Then OUT.csv, OUT_fit.csv and OUT.md are rewritten from every result
file present, with the Richardson extrapolation (richardson() below: observed order, limit,
uncertainty) from the three finest levels of two series per NU: teddy and bubbles refined
together, and the teddy refined with the bubbles at level 0.
"""
import argparse
import csv
import glob
import json
import math
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scenarios", "generators"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import meshtools  # noqa: E402
import red_refine  # noqa: E402
from reference_series import SCENE, TEDDY, hold_force  # noqa: E402

BUBBLE = os.path.join(ROOT, "scenarios", "assets", "drake_models", "wsg_50_description", "bubble.vtk")
DT = 0.05
DEFAULT_RUNS = "0.45:0,0.45:1,0.3:0,0.3:1,0.45:1:0,0.45:2,0.45:2:0,0.3:2,0.45:3"
DEFAULT_OUT = os.path.join(ROOT, "results", "locking_richardson")
THEORETICAL_ORDER = 2.0  # linear tets: a force (an energy derivative) converges as h^2 for smooth solutions
SERIES = {"teddy and bubbles": lambda r: r["bubble_level"] == r["level"],
          "teddy, bubbles at level 0": lambda r: r["bubble_level"] == 0}
SAFETY = 1.25  # Roache's grid convergence index factor for three grids


def richardson(f1, f2, f3, ratio=2.0):
    """Forces on three levels, coarse to fine, each `ratio` times finer: observed order p,
    the extrapolated limit f3 + (f3 - f2) / (ratio^p - 1), and its uncertainty, the larger
    of Roache's GCI (SAFETY |f3 - f2| / (ratio^p - 1)) and the distance to the limit
    extrapolated with p = THEORETICAL_ORDER. None when the changes alternate in sign
    (no asymptotic order)."""
    d1, d2 = f2 - f1, f3 - f2
    if d1 == 0 or d2 / d1 <= 0:
        return None
    p = math.log(d1 / d2) / math.log(ratio)
    limit = f3 + d2 / (ratio ** p - 1)
    limit_th = f3 + d2 / (ratio ** THEORETICAL_ORDER - 1)
    gci = SAFETY * abs(d2) / abs(ratio ** p - 1)
    return {"order": p, "limit": limit, "limit_theoretical_order": limit_th,
            "uncertainty": max(gci, abs(limit - limit_th)), "gci": gci}


def level_mesh(work, source, name, level):
    mesh = os.path.join(work, f"{name}_red{level}.msh")
    if not os.path.exists(mesh):
        V, T = red_refine.refine(*red_refine.read_tets(source), level)
        meshtools.write_msh22(mesh, V, T)
        json.dump(meshtools.tet_mesh_report(V, T), open(mesh + ".json", "w"), indent=1)
    return mesh, json.load(open(mesh + ".json"))


def run(args, nu, level, bubble_level):
    tag = "" if bubble_level == level else f"_bubble{bubble_level}"
    result = os.path.join(args.out, f"nu{nu}_level{level}{tag}.json")
    if os.path.exists(result):
        return
    teddy, teddy_info = level_mesh(args.work, TEDDY, "teddy", level)
    bubble, bubble_info = level_mesh(args.work, BUBBLE, "bubble", bubble_level)
    traj = os.path.join(args.work, f"nu{nu}_level{level}{tag}.h5")
    cmd = ["nice", "-n", "19", args.eipc, "run", SCENE, "--dt", str(DT), "--embedding", "full", "--threads", "1",
           "--set", f"bodies.teddy.mesh={teddy}", "--set", f"bodies.bubble_left.mesh={bubble}",
           "--set", f"bodies.bubble_right.mesh={bubble}", "--set", f"bodies.teddy.material.poisson={nu}",
           "--json", "--out", traj]
    print(f"nu {nu} level {level} (bubbles {bubble_level}): {teddy_info['vertices']} + 2 x {bubble_info['vertices']} nodes ...", flush=True)
    start = time.time()
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"error: nu {nu} level {level}: eipc run exit {out.returncode}\n{out.stderr[-2000:]}")
    summary = json.loads(out.stdout)
    force, status = hold_force(traj)
    row = {"poisson": nu, "level": level, "bubble_level": bubble_level, "teddy_nodes": teddy_info["vertices"], "teddy_tets": teddy_info["tets"],
           "bubble_nodes": bubble_info["vertices"], "teddy_min_radius_ratio": teddy_info["min_radius_ratio"],
           "bubble_min_radius_ratio": bubble_info["min_radius_ratio"], "dt": DT, "hold_force_N": force,
           "status": status, "wall_s": summary["wall_seconds"], "measured_wall_s": time.time() - start,
           "newton_mean": summary["newton_iterations_mean"], "threads": 1}
    os.makedirs(args.out, exist_ok=True)
    json.dump(row, open(result + ".tmp", "w"), indent=1)
    os.replace(result + ".tmp", result)
    print(f"  hold force {force:.4f} N, {status}, {row['wall_s']:.1f} s", flush=True)


def write_tables(args):
    rows = [json.load(open(p)) for p in glob.glob(os.path.join(args.out, "nu*_level*.json"))]
    # Two series per Poisson ratio: teddy and bubbles refined together (the physical limit),
    # and the teddy alone with the bubbles at level 0 (the committed scene's bubbles, those
    # of every embedding in results/locking.csv). Level 0 belongs to both.
    rows.sort(key=lambda r: (-r["poisson"], r["bubble_level"] != r["level"], r["level"]))
    fits = []
    for nu in sorted({r["poisson"] for r in rows}, reverse=True):
        for kind, member in SERIES.items():
            series = [r for r in rows if r["poisson"] == nu and member(r)]
            for prev, r in zip(series, series[1:]):
                r["change_from_previous"] = r["hold_force_N"] / prev["hold_force_N"] - 1
            if len(series) >= 3:
                fits.append((nu, kind, series[-3]["level"], series[-1]["level"],
                             richardson(*(r["hold_force_N"] for r in series[-3:]))))
    columns = ["poisson", "level", "bubble_level", "teddy_nodes", "teddy_tets", "bubble_nodes", "teddy_min_radius_ratio",
               "bubble_min_radius_ratio", "dt", "hold_force_N", "change_from_previous", "status", "wall_s",
               "newton_mean", "threads"]
    with open(args.out + ".csv", "w", newline="") as f:
        w = csv.DictWriter(f, columns, extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow(r)
    with open(args.out + "_fit.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["poisson", "refined", "levels", "order", "limit_N", "uncertainty_N", "limit_theoretical_order_N"])
        for nu, kind, lo, hi, fit in fits:
            if fit is not None:
                w.writerow([nu, kind, f"{lo}-{hi}", repr(fit["order"]), repr(fit["limit"]), repr(fit["uncertainty"]),
                            repr(fit["limit_theoretical_order"])])
    with open(args.out + ".md", "w") as f:
        f.write("# The teddy's hold force on self-similar refinements, extrapolated\n\n")
        runs = "" if args.runs == DEFAULT_RUNS else f" --runs {args.runs}"
        f.write(f"Made by `scenarios/locking/richardson.py{runs}` (docstring: what is run and "
                "measured; per-run results in `results/locking_richardson/`). Level L: teddy.vtk and bubble.vtk "
                "each red-refined L times (scenarios/generators/red_refine.py). Hold force: x force (normal + "
                f"friction) on bubble_left from the teddy, mean over 3 <= t <= 4 s, h = {DT} s, full space, "
                "1 thread under nice -n 19 on the shared host (walls not quiet).\n\n")
        f.write("| Poisson | level | bubble level | teddy nodes | teddy tets | bubble nodes | min radius ratio (teddy) | "
                "hold force (N) | change from previous | status | wall (s) |\n")
        f.write("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|\n")
        for r in rows:
            change = f"{100 * r['change_from_previous']:+.2f}%" if "change_from_previous" in r else ""
            f.write(f"| {r['poisson']} | {r['level']} | {r['bubble_level']} | {r['teddy_nodes']} | {r['teddy_tets']} | {r['bubble_nodes']} | "
                    f"{r['teddy_min_radius_ratio']:.4f} | {r['hold_force_N']:.4f} | {change} | {r['status']} | "
                    f"{r['wall_s']:.1f} |\n")
        f.write("\nRichardson extrapolation from the three finest levels (refinement ratio 2): observed order "
                "p = log2((f1 - f2) / (f2 - f3)), limit f3 + (f3 - f2) / (2^p - 1); uncertainty: the larger of "
                f"Roache's GCI ({SAFETY} |f3 - f2| / (2^p - 1)) and the distance to the limit with p = "
                f"{THEORETICAL_ORDER:g}.\n\n")
        f.write("| Poisson | refined | levels | observed order | limit (N) | uncertainty (N) | limit with p = 2 (N) |\n")
        f.write("|---:|---|---|---:|---:|---:|---:|\n")
        for nu, kind, lo, hi, fit in fits:
            if fit is None:
                f.write(f"| {nu} | {kind} | {lo}-{hi} | alternating changes: no order | | | |\n")
            else:
                f.write(f"| {nu} | {kind} | {lo}-{hi} | {fit['order']:.2f} | {fit['limit']:.4f} | "
                        f"{fit['uncertainty']:.4f} ({100 * fit['uncertainty'] / abs(fit['limit']):.1f}%) | "
                        f"{fit['limit_theoretical_order']:.4f} |\n")
    print(f"wrote {args.out}.csv, {args.out}_fit.csv and {args.out}.md")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", default=DEFAULT_RUNS)
    p.add_argument("--work", default=os.path.join(ROOT, "out", "locking_richardson"))
    p.add_argument("--eipc", default=os.path.join(ROOT, "build", "bin", "eipc"))
    p.add_argument("--out", default=DEFAULT_OUT)
    args = p.parse_args()
    args.work = os.path.abspath(args.work)  # the scene resolves --set mesh paths against its own folder
    os.makedirs(args.work, exist_ok=True)
    os.makedirs(args.out, exist_ok=True)
    for spec in args.runs.split(","):
        nu, level, *bubble = spec.split(":")
        run(args, float(nu), int(level), int(bubble[0]) if bubble else int(level))
        write_tables(args)


if __name__ == "__main__":
    main()
