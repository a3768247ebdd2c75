#!/usr/bin/python3
"""How far each Fin Ray finger model's bending and grip are from the finest full-space
finger, and at what cost (issue 40, item 3: the locking table for the FinRay fingers).

    scenarios/locking/finray_table.py [--work out/locking_finray] [--eipc build/bin/eipc]
        [--max-load 0.5] [--wait 600] [--repeats 3] [--out results/locking_finray]

Runs scenarios/finray_plate_rack.json (4 s, h = 0.01 s, 2 threads) once per finger model:
`coarse` (the scene's 378-node embedding), `coarse_coarsened` (the same nodes with the
stiffness coarsened from the finger's own 3,385-node mesh, docs/embedding.md), `full`
(finray.msh in full space) and `full_fine` (a finer full-space finger: gmsh at 0.6 mm,
0.35 mm on the ribs, 6 layers, made unless WORK holds it; the reference). Measured:
- bending: the largest deformation of finger_left over the run (scenarios/finray/check.py:
  distance of a vertex from its finger's rigid base pose), and its error against full_fine;
- grip: mean y force (normal + friction) on the plate from finger_left over the hold,
  2.0 <= t <= 2.4 s, and its error against full_fine (which has not converged in it: say so);
- wall: the run's own wall time, median [min-max] of --repeats runs per model (the first is
  the run measured above; the others are interleaved, the models' order rotated each repeat),
  each started once the 1-minute load average is below --max-load (or after --wait seconds;
  the highest load before any of them is recorded); whether the plate ends in its slot
  (check.py's exit code) and whether `eipc certify` finds every frame free of intersections.
Runs already in WORK are reused (delete them to re-time). Writes OUT.csv and OUT.md.
Debian's /usr/bin/python3.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "analysis"))
from eipc_report.hold_force import body_nodes, mean_force  # noqa: E402
from eipc_report.trajectory import read_pair_series  # noqa: E402
from quiet_machine import load_text, wait_for_load  # noqa: E402

SCENE = os.path.join(ROOT, "scenarios", "finray_plate_rack.json")
CHECK = os.path.join(ROOT, "scenarios", "finray", "check.py")
GEO = os.path.join(ROOT, "scenarios", "generators", "finray.geo")
MESHTOOLS = os.path.join(ROOT, "scenarios", "generators", "meshtools.py")
FINGERS = ("finger_left", "finger_right")
HOLD = (2.0, 2.4)
REFERENCE = "full_fine"


def fine_mesh(work):
    """The finer finger mesh (full_fine), made with gmsh unless WORK holds it."""
    mesh = os.path.join(work, "finray_fine.msh")
    if not os.path.exists(mesh):
        raw = os.path.join(work, "finray_fine.raw.msh")
        subprocess.run(["gmsh", "-3", "-nt", "1", "-setnumber", "h", "0.0006", "-setnumber", "hr", "0.00035",
                        "-setnumber", "nl", "6", GEO, "-o", raw], check=True, capture_output=True)
        subprocess.run([sys.executable, MESHTOOLS, raw, mesh], check=True, capture_output=True)
    return mesh


def model_args(model, work):
    """`eipc run` arguments that select one finger model for both fingers."""
    if model == "coarse":
        return ["--embedding", "coarse"]
    if model == "coarse_coarsened":
        entry = json.dumps({"mesh": "assets/generated/finray_coarse.msh", "coarsened_stiffness": True})
        return ["--embedding", "coarse_coarsened"] + [a for f in FINGERS
                                                       for a in ("--set", f"bodies.{f}.embeddings.coarse_coarsened={entry}")]
    if model == "full":
        return ["--embedding", "full"]
    mesh = fine_mesh(work)
    return ["--embedding", "full"] + [a for f in FINGERS for a in ("--set", f"bodies.{f}.mesh={mesh}")]


def timed_run(args, model, out):
    """The run's summary (`eipc run --json`) with the load average before it, kept beside `out`
    and reused when already there."""
    summary_path = out + ".summary.json"
    if not os.path.exists(summary_path):
        load = wait_for_load(args.max_load, args.wait)
        run = subprocess.run([args.eipc, "run", SCENE, "--threads", "2", "--json", "--out", out] +
                             model_args(model, args.work), capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"error: {model}: eipc run exit {run.returncode}: {run.stderr.strip()[-2000:]}")
        summary = json.loads(run.stdout)
        summary["load_before"] = load
        json.dump(summary, open(summary_path, "w"), indent=1)
    return json.load(open(summary_path))


def run_model(args, model):
    out = os.path.join(args.work, model + ".h5")
    summary = timed_run(args, model, out)
    if "certified" not in summary:
        summary["certified"] = subprocess.run([args.eipc, "certify", out], capture_output=True).returncode == 0
        json.dump(summary, open(out + ".summary.json", "w"), indent=1)
    check = subprocess.run([sys.executable, CHECK, out, "--json"], capture_output=True, text=True)
    if check.returncode not in (0, 1):
        sys.exit(f"error: {model}: check.py exit {check.returncode}: {check.stderr.strip()}")
    return {"model": model, "nodes_per_finger": body_nodes(out, "finger_left"),
            "max_deformation_mm": 1e3 * json.loads(check.stdout)["finger_left"]["max_deformation_m"],
            "grip_force_N": mean_force(read_pair_series(out, "plate", "finger_left"), HOLD, "y"),
            "walls": [summary["wall_seconds"]], "load_before": summary["load_before"],
            "plate_in_slot": check.returncode == 0, "certified": summary["certified"]}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--work", default=os.path.join(ROOT, "out", "locking_finray"))
    p.add_argument("--eipc", default=os.path.join(ROOT, "build", "bin", "eipc"))
    p.add_argument("--max-load", type=float, default=0.5)
    p.add_argument("--wait", type=float, default=600, help="seconds to wait for --max-load before each run")
    p.add_argument("--repeats", type=int, default=3, help="timed runs per model (the first is the measured one)")
    p.add_argument("--out", default=os.path.join(ROOT, "results", "locking_finray"))
    args = p.parse_args()
    if args.repeats < 1:
        sys.exit(f"error: --repeats {args.repeats}: at least 1")
    args.work = os.path.abspath(args.work)  # the scene resolves --set mesh paths against its own folder
    os.makedirs(args.work, exist_ok=True)
    rows = []
    for model in ("coarse", "coarse_coarsened", "full", REFERENCE):
        rows.append(run_model(args, model))
        r = rows[-1]
        print(f"{model}: {r['nodes_per_finger']} nodes, bends {r['max_deformation_mm']:.2f} mm, grips "
              f"{r['grip_force_N']:.2f} N, {r['walls'][0]:.1f} s (load {load_text(r['load_before'])})", flush=True)
    os.makedirs(os.path.join(args.work, "timing"), exist_ok=True)
    for repeat in range(1, args.repeats):
        for k in range(len(rows)):
            r = rows[(k + repeat) % len(rows)]  # rotated order: the models interleaved
            summary = timed_run(args, r["model"], os.path.join(args.work, "timing", f"{r['model']}_{repeat}.h5"))
            r["walls"].append(summary["wall_seconds"])
            r["load_before"] = max(r["load_before"], summary["load_before"])
            print(f"{r['model']}, repeat {repeat + 1}: {summary['wall_seconds']:.1f} s "
                  f"(load {load_text(summary['load_before'])})", flush=True)
    for r in rows:
        r.update(wall_s=statistics.median(r["walls"]), wall_min_s=min(r["walls"]), wall_max_s=max(r["walls"]))
    ref, full = rows[-1], rows[-2]
    for r in rows:
        r["deformation_error"] = r["max_deformation_mm"] / ref["max_deformation_mm"] - 1
        r["grip_error"] = r["grip_force_N"] / ref["grip_force_N"] - 1
    fields = ["model", "nodes_per_finger", "max_deformation_mm", "deformation_error", "grip_force_N", "grip_error",
              "wall_s", "wall_min_s", "wall_max_s", "load_before", "plate_in_slot", "certified"]
    with open(args.out + ".csv", "w", newline="") as f:
        w = csv.DictWriter(f, fields, lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({k: (load_text(r[k]) if k == "load_before" else r[k]) for k in fields})
    yes = {True: "yes", False: "**no**"}
    lines = ["# The Fin Ray fingers' bending and grip per finger model, against the finest full-space finger\n",
             "Made by `scenarios/locking/finray_table.py` (docstring: what is measured). "
             f"scenarios/finray_plate_rack.json, 4 s at h = 0.01 s, 2 threads; wall: median [range] of {args.repeats} "
             "runs per model, load before: the highest before any of them. Bending: largest "
             "deformation of finger_left from its rigid base pose over the run. Grip: mean y force (normal + "
             f"friction) on the plate from finger_left over {HOLD[0]:g}-{HOLD[1]:g} s. Errors against "
             f"`{REFERENCE}`: signed, positive = bends or grips more. The two full-space fingers differ by "
             f"{100 * abs(full['deformation_error']):.1f}% in bending and {100 * abs(full['grip_error']):.1f}% in grip: "
             "the errors are against the finest finger run, converged only as far as that says.\n",
             "| model | nodes per finger | bending (mm) | bending error | grip (N) | grip error | wall (s) | "
             "load before | plate in slot | certified |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for r in rows:
        lines.append(f"| {r['model']} | {r['nodes_per_finger']} | {r['max_deformation_mm']:.2f} | "
                     f"{100 * r['deformation_error']:+.1f}% | {r['grip_force_N']:.2f} | {100 * r['grip_error']:+.1f}% | "
                     f"{r['wall_s']:.1f} [{r['wall_min_s']:.1f}-{r['wall_max_s']:.1f}] | {load_text(r['load_before'])} | {yes[r['plate_in_slot']]} | "
                     f"{yes[r['certified']]} |")
    with open(args.out + ".md", "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {args.out}.csv and {args.out}.md")


if __name__ == "__main__":
    main()
