#!/usr/bin/python3
"""The teddy grasp's squeeze force in full space as the bear's tet mesh is refined (issue 40, item 1).

    scenarios/locking/reference_series.py [--work DIR] [--eipc build/bin/eipc] [--dt 0.01]
        [--levels SPEC,...] [--out results/locking_reference]

Each level re-tetrahedralises Drake's teddy surface with TetGen
(scenarios/generators/subdivided_tetgen.py: the surface split S times at edge midpoints,
the same geometry; interior tets no larger than V), runs the bubble grasp
(scenarios/bubble_grasp/teddy.json) in full space with that mesh for the bear, and
measures the hold force: the x component of the contact force (normal + friction) on
bubble_left from the teddy, averaged over the hold, 3 <= t <= 4 s (the quantity of
results/contact_forces.csv). Level SPEC is S:V. Runs already in --work are reused when
complete. Writes OUT.csv and OUT.md. Uses Debian's /usr/bin/python3 (numpy, h5py).

The time step: h = 0.01 s gives the hold force of h = 0.005 s to 0.06%
(results/locking_reference_dt0.005.md), and h = 0.05 s that of h = 0.01 s to about 0.1% at
every level run both ways (results/locking_reference_dt0.05.md). The next level, the surface
split three times (3:2e-6, 51k nodes), needs about three hours even at h = 0.05. The lift
cannot be left out to save time: with the bear left on the ground the squeeze force is about
45% higher (docs/embedding.md).
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "analysis"))
from eipc_report.hold_force import mean_force  # noqa: E402
from eipc_report.trajectory import read_pair_series  # noqa: E402

SCENE = os.path.join(ROOT, "scenarios", "bubble_grasp", "teddy.json")
TEDDY = os.path.join(ROOT, "scenarios", "assets", "drake", "teddy.vtk")
TETGEN = os.path.join(ROOT, "scenarios", "generators", "subdivided_tetgen.py")
DEFAULT_LEVELS = "0:1e-3,0:2e-4,0:5e-5,1:2e-5,1:5e-6,2:5e-6,2:2e-6"
HOLD = (3.0, 4.0)
DEFAULT_WORK = os.path.join(ROOT, "out", "locking_reference")


def hold_force(path):
    s = read_pair_series(path, "bubble_left", "teddy")
    return mean_force(s, HOLD, "x"), s.status


def level_mesh(work, levels, volume):
    """The bear's tet mesh of one level (surface split `levels` times, tets no larger than
    `volume`), in teddy.vtk's frame; made with TetGen unless WORK already holds it."""
    name = f"teddy_s{levels}_v{volume}"
    mesh = os.path.join(work, name + ".msh")
    if not os.path.exists(mesh):
        os.makedirs(work, exist_ok=True)
        report = subprocess.run([sys.executable, TETGEN, TEDDY, os.path.join(work, name + "_tetgen"), mesh,
                                 str(levels), f"pYq1.4a{volume}"], check=True, capture_output=True, text=True).stdout
        with open(mesh + ".json", "w") as f:
            f.write(report)
    return mesh


def run_level(args, levels, volume):
    name = f"teddy_s{levels}_v{volume}"
    mesh = level_mesh(args.work, levels, volume)
    info = json.load(open(mesh + ".json"))
    run = os.path.join(args.work, f"{name}_dt{args.dt}.h5")
    summary_path = run + ".summary.json"
    if not (os.path.exists(run) and os.path.exists(summary_path)):
        start = time.time()
        out = subprocess.run([args.eipc, "run", SCENE, "--dt", str(args.dt), "--embedding", "full", "--threads", "2",
                              "--set", f"bodies.teddy.mesh={mesh}", "--json", "--out", run],
                             capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"error: {name}: eipc run exit {out.returncode}\n{out.stderr[-2000:]}")
        summary = json.loads(out.stdout)
        summary["measured_wall_seconds"] = time.time() - start
        json.dump(summary, open(summary_path, "w"), indent=1)
    summary = json.load(open(summary_path))
    force, status = hold_force(run)
    return {"surface_splits": levels, "max_tet_volume": volume, "nodes": info["vertices"], "tets": info["tets"],
            "surface_vertices": info["boundary_vertices"], "dt": args.dt, "hold_force_N": force, "status": status,
            "wall_s": summary["wall_seconds"], "newton_mean": summary["newton_iterations_mean"]}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--work", default=DEFAULT_WORK)
    p.add_argument("--eipc", default=os.path.join(ROOT, "build", "bin", "eipc"))
    p.add_argument("--dt", type=float, default=0.01)
    p.add_argument("--levels", default=DEFAULT_LEVELS)
    default_out = os.path.join(ROOT, "results", "locking_reference")
    p.add_argument("--out", default=default_out)
    args = p.parse_args()
    args.work = os.path.abspath(args.work)  # the scene resolves --set mesh paths against its own folder
    os.makedirs(args.work, exist_ok=True)
    rows = []
    for spec in args.levels.split(","):
        levels, volume = spec.split(":")
        row = run_level(args, int(levels), volume)
        rows.append(row)
        print(f"{row['nodes']:>6} nodes ({row['surface_vertices']} on the surface): hold force "
              f"{row['hold_force_N']:.3f} N, {row['status']}, {row['wall_s']:.1f} s", flush=True)
    for prev, row in zip(rows, rows[1:]):
        row["change_from_previous"] = row["hold_force_N"] / prev["hold_force_N"] - 1
    columns = ["nodes", "tets", "surface_vertices", "surface_splits", "max_tet_volume", "dt", "hold_force_N",
               "change_from_previous", "status", "wall_s", "newton_mean"]
    with open(args.out + ".csv", "w", newline="") as f:
        w = csv.DictWriter(f, columns, extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow(r)
    with open(args.out + ".md", "w") as f:
        f.write("# The teddy's squeeze force in full space under mesh refinement\n\n")
        out = "" if args.out == default_out else f" --out {os.path.relpath(args.out, ROOT)}"
        f.write(f"Made by `scenarios/locking/reference_series.py --dt {args.dt} --levels {args.levels}{out}` "
                "(docstring: what is measured). Hold force: x force (normal + friction) on bubble_left from the "
                "teddy, mean over 3 <= t <= 4 s. Wall times are the host's (shared, not quiet).\n\n")
        f.write("| nodes | tets | surface vertices | hold force (N) | change from previous | status | wall (s) |\n")
        f.write("|---:|---:|---:|---:|---:|---|---:|\n")
        for r in rows:
            change = f"{100 * r['change_from_previous']:+.1f}%" if "change_from_previous" in r else ""
            f.write(f"| {r['nodes']} | {r['tets']} | {r['surface_vertices']} | {r['hold_force_N']:.3f} | {change} | "
                    f"{r['status']} | {r['wall_s']:.1f} |\n")
    print(f"wrote {args.out}.csv and {args.out}.md")


if __name__ == "__main__":
    main()
