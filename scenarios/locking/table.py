#!/usr/bin/python3
"""How far each embedding's squeeze force is from the converged one, and at what cost (issue 40).

    scenarios/locking/table.py [--study teddy|teddy_53k] [--work out/locking[_53k]]
        [--eipc build/bin/eipc] [--repeats 3] [--embeddings E,...] [--out results/locking[_53k]]
    scenarios/locking/table.py [--study ...] --rereference   (OUT.csv's forces against today's reference)

Studies: `teddy`, the grasp of Drake's 410-vertex bear (scenarios/bubble_grasp/teddy.json;
embeddings full, affine, affine_coarsened, low, low_split, low_coarsened, medium,
medium_split, medium_coarsened); `teddy_53k`, the same grasp of the 53k-vertex bear
(scenarios/resolution/teddy_50k.json, Drake's surface split twice; embeddings affine,
affine_coarsened, low, low_coarsened, coarsened from its own 53k-vertex tet mesh; no full
space: its step takes minutes; no medium: 1,881 of its vertices lie outside that lattice).

1. `eipc sweep` of the grasp at h = 0.02, 0.01,
   0.005 s with every embedding, against fine-step references (the teddy's committed low and
   full ones, the others made under WORK/references with reference/make), then
   `eipc report --hold 3,4 --force-reference R`: each method's hold force (mean x force on
   bubble_left from the teddy over 3-4 s, at h = 0.005 s), its signed error against R and
   its fitted order. R = scenarios/locking/converged_force.py's reference(): the Richardson
   limit of the self-similarly refined bear with its uncertainty U (results/locking_richardson.md),
   or before that series had three levels the finest TetGen level (results/locking_reference.csv).
   Each error's uncertainty from R's alone is U |F| / R^2 (the error F / R - 1 moved by R +- U).
2. Wall time: the 4 s grasp at h = 0.02 s on 2 threads (`eipc run --threads 2`, the run's
   own wall time), every embedding once per repeat, the order rotated each repeat; each
   run starts once the 1-minute load average is below --max-load (or after --wait
   seconds), and the load before it is recorded. Medians with ranges.

Writes OUT.csv (the columns of the report's hold_force.csv, wall_s replaced by the median
2-thread time, plus its range and the loads, and force_error_uncertainty), OUT.md and
OUT.png/.svg (force error against that median wall; `--replot` redraws them from OUT.csv;
`--rereference` recomputes the errors of OUT.csv's forces against today's reference and
rewrites all three, running nothing). Debian's /usr/bin/python3.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "analysis"))
from converged_force import reference as converged_reference  # noqa: E402
from reference_series import DEFAULT_WORK, level_mesh  # noqa: E402
from eipc_report import plots, style  # noqa: E402
from quiet_machine import load_text, wait_for_load  # noqa: E402
LOW, MEDIUM = "../assets/embeddings/teddy_low.msh", "../assets/embeddings/teddy_medium.msh"
COARSENING_SOURCE = (2, "5e-6")  # reference_series level S:V of the bear the teddy study coarsens from
STUDIES = {
    "teddy": {"scene": os.path.join(ROOT, "scenarios", "bubble_grasp", "teddy.json"),
              "scenario": "bubble_grasp_teddy", "committed_references": ("low", "full"),
              "embeddings": "full,affine,affine_coarsened,low,low_split,low_coarsened,medium,medium_split,"
                            "medium_coarsened",
              "title": "The teddy's squeeze force per embedding, against the converged force"},
    "teddy_53k": {"scene": os.path.join(ROOT, "scenarios", "resolution", "teddy_50k.json"),
                  "scenario": "bubble_grasp_teddy_50k", "committed_references": (),
                  "embeddings": "affine,affine_coarsened,low,low_coarsened",
                  "title": "The 53k-vertex teddy's squeeze force per embedding, against the converged force"},
}


def added_embeddings(study, embeddings):
    """The embeddings a study adds to its scene with --set, so the scene, and the references
    made from it, stay as committed (docs/embedding.md): the lattices with their tets split per
    connected part, and with the stiffness coarsened from a fine tet mesh of the bear: for
    Drake's 410-vertex bear the 16,276-node bear of the reference series (made by TetGen
    unless out/locking_reference holds it; a finer one moves the coarsened forces by about 1%
    per level, docs/embedding.md, and costs more at every scene load), for the 53k-vertex
    bear its own mesh (`true`)."""
    fine = level_mesh(DEFAULT_WORK, *COARSENING_SOURCE) if study == "teddy" else True
    entries = {"low_split": {"mesh": LOW, "split_disconnected_parts": True},
               "medium_split": {"mesh": MEDIUM, "split_disconnected_parts": True},
               "affine_coarsened": {"mesh": "affine", "coarsened_stiffness": fine},
               "low_coarsened": {"mesh": LOW, "coarsened_stiffness": fine},
               "medium_coarsened": {"mesh": MEDIUM, "coarsened_stiffness": fine}}
    return [arg for name, entry in entries.items() if name in embeddings
            for arg in ("--set", f"bodies.teddy.embeddings.{name}={json.dumps(entry)}")]


def make_references(args, embeddings):
    refs = os.path.join(args.work, "references")
    scenario = STUDIES[args.study]["scenario"]
    os.makedirs(os.path.join(refs, scenario), exist_ok=True)
    for e in embeddings:
        target = os.path.join(refs, scenario, e + ".h5")
        if os.path.exists(target):
            continue
        if e in STUDIES[args.study]["committed_references"]:
            os.symlink(os.path.join(ROOT, "reference", scenario, e + ".h5"), target)
        else:
            subprocess.run([os.path.join(ROOT, "reference", "make"), args.scene, e, "--out", refs, "--no-xdmf"] +
                           args.added,
                           check=True, env=dict(os.environ, EIPC=args.eipc))
    return refs


def timed_run(args, embedding):
    """(wall seconds, load before) of one 2-thread run, started once the load average is below
    --max-load (waiting up to --wait seconds; after that it runs anyway, its load recorded)."""
    out = os.path.join(args.work, "timing", f"{embedding}.h5")
    before = wait_for_load(args.max_load, args.wait)
    run = subprocess.run([args.eipc, "run", args.scene, "--dt", "0.02", "--embedding", embedding, "--threads", "2",
                          "--json", "--out", out] + args.added, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"error: {embedding} at h = 0.02 failed (exit {run.returncode}): {run.stderr.strip()}")
    return json.loads(run.stdout)["wall_seconds"], before


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--study", choices=sorted(STUDIES), default="teddy")
    p.add_argument("--work", help="default out/locking, or out/locking_53k")
    p.add_argument("--eipc", default=os.path.join(ROOT, "build", "bin", "eipc"))
    p.add_argument("--embeddings", help="default: the study's (docstring)")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--max-load", type=float, default=0.5)
    p.add_argument("--wait", type=float, default=600, help="seconds to wait for --max-load before each run")
    p.add_argument("--out", help="default results/locking, or results/locking_53k")
    p.add_argument("--replot", action="store_true", help="only redraw OUT.png/.svg from OUT.csv")
    p.add_argument("--rereference", action="store_true",
                   help="only recompute OUT.csv's force errors against today's reference (and OUT.md, .png)")
    args = p.parse_args()
    suffix = "" if args.study == "teddy" else "_53k"
    args.work = args.work or os.path.join(ROOT, "out", "locking" + suffix)
    args.out = args.out or os.path.join(ROOT, "results", "locking" + suffix)
    args.embeddings = args.embeddings or STUDIES[args.study]["embeddings"]
    args.scene = STUDIES[args.study]["scene"]
    ref = converged_reference()
    if args.replot or args.rereference:
        if args.rereference:
            rows = list(csv.DictReader(open(args.out + ".csv")))
            write_table(args, [r for r in rows if r["embedding"] != REFERENCE_ROW], ref)
        os.makedirs(args.work, exist_ok=True)
        plot(args.out, args.work)
        return
    embeddings = args.embeddings.split(",")
    args.added = added_embeddings(args.study, embeddings)
    refs = make_references(args, embeddings)
    sweep = os.path.join(args.work, "sweep")
    subprocess.run([args.eipc, "sweep", args.scene, "--dt", "0.02,0.01,0.005", "--embedding", ",".join(embeddings),
                    "--set", "output.every=0.005", "--reference", refs, "--out", sweep] + args.added, check=True)
    report = os.path.join(args.work, "report")
    subprocess.run([args.eipc, "report", sweep, "--out", report, "--pair", "bubble_left,teddy", "--hold", "3,4",
                    "--force-reference=" + repr(ref["force"])], check=True)
    rows = list(csv.DictReader(open(os.path.join(report, "hold_force.csv"))))
    runs = list(csv.DictReader(open(os.path.join(sweep, "runs.csv"))))
    certified = {e: f"{sum(r['certified'] == 'yes' for r in runs if r['embedding'] == e)}/"
                    f"{sum(r['embedding'] == e for r in runs)}" for e in embeddings}

    walls = {e: [] for e in embeddings}
    for repeat in range(args.repeats):
        for e in embeddings[repeat % len(embeddings):] + embeddings[:repeat % len(embeddings)]:
            walls[e].append(timed_run(args, e))
            print(f"  repeat {repeat + 1}: {e} {walls[e][-1][0]:.3f} s (load {load_text(walls[e][-1][1])})", flush=True)

    table = []
    for r in (r for r in rows if r["embedding"] != REFERENCE_ROW):
        times = [x[0] for x in walls.get(r["embedding"], [])]
        table.append({"embedding": r["embedding"], "nodes": r["nodes"], "hold_force_N": r["hold_force_N"],
                      "wall_s": repr(statistics.median(times)) if times else "",
                      "wall_min_s": repr(min(times)) if times else "", "wall_max_s": repr(max(times)) if times else "",
                      "loads_before": " ".join(load_text(x[1]) for x in walls.get(r["embedding"], [])),
                      "fitted_order": r["fitted_order"], "certified": certified.get(r["embedding"], "")})
    write_table(args, table, ref)
    plot(args.out, report)
    print(f"wrote {args.out}.csv, .md, .png, .svg")


REFERENCE_ROW = "converged reference"
FIELDS = ["embedding", "nodes", "hold_force_N", "force_error", "force_error_uncertainty", "wall_s", "wall_min_s",
          "wall_max_s", "loads_before", "fitted_order", "certified"]


def write_table(args, rows, ref):
    """OUT.csv and OUT.md from the methods' rows (hold force, walls, order, certified) and the
    reference: each force error, and its uncertainty from the reference's (module docstring)."""
    force, u = ref["force"], ref["uncertainty"]
    out = [dict({k: "" for k in FIELDS}, embedding=REFERENCE_ROW, nodes=ref["nodes"], hold_force_N=repr(force),
                force_error="0.0", force_error_uncertainty=repr(u / abs(force)) if u is not None else "")]
    for r in rows:
        f = float(r["hold_force_N"])
        out.append(dict(r, nodes=r["nodes"] or ref["nodes"], force_error=repr(f / force - 1),
                        force_error_uncertainty=repr(u * abs(f) / force ** 2) if u is not None else ""))
    with open(args.out + ".csv", "w", newline="") as fh:
        w = csv.DictWriter(fh, FIELDS, extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        w.writerows(out)
    write_markdown(args, out, ref)



def plot(out, work_dir):
    """OUT.png/.svg: each method's |force error| against its quiet median wall (OUT.csv's),
    the report's force-error plot with these times instead of the sweep's single runs."""
    rows = [{"embedding": r["embedding"], "force_error": float(r["force_error"]), "wall_s": float(r["wall_s"]),
             "wall_dt": 0.02} for r in csv.DictReader(open(out + ".csv")) if r["wall_s"] and r["force_error"]]
    if not rows:
        return  # not timed (--repeats 0): nothing to plot
    style.apply()
    styles = {r["embedding"]: style.method_style(i) for i, r in enumerate(rows)}
    for name in plots.force_error_vs_wall(rows, styles, work_dir):
        os.replace(os.path.join(work_dir, name), out + os.path.splitext(name)[1])


def write_markdown(args, rows, ref):
    name = os.path.basename(args.out)
    loads = [float(x) for r in rows for x in r.get("loads_before", "").split()]
    load_range = f"{min(loads):.2f}-{max(loads):.2f}" if loads else "(not timed)"
    repeats = max((len(r.get("loads_before", "").split()) for r in rows), default=0)
    uncertainty = f" +- {ref['uncertainty']:.3f} N" if ref["uncertainty"] is not None else " N (uncertainty unknown)"
    lines = [f"# {STUDIES[args.study]['title']}\n",
             f"Made by `scenarios/locking/table.py --study {args.study}` (docstring: what is measured). Hold force: mean x force "
             f"(normal + friction) on bubble_left from the teddy over 3-4 s at h = 0.005 s. Converged "
             f"reference: {ref['force']:.3f}{uncertainty}, {ref['source']}. Force error: signed, positive = "
             f"squeezes harder; +- is what the reference's uncertainty alone allows. Wall: the "
             f"4 s grasp at h = 0.02 s on 2 threads, median of {repeats} interleaved runs [range], "
             f"load average before each run {load_range} (each in `{name}.csv`). Fitted order: slope of log E(h) over "
             f"h = 0.02, 0.01, 0.005 s against each method's own h = 5e-4 s reference. Certified: runs of "
             f"the sweep whose every frame `eipc certify` found free of intersections.\n",
             "| embedding | nodes | hold force (N) | force error | wall (s) | fitted order | certified |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        wall = f"{float(r['wall_s']):.3f} [{float(r['wall_min_s']):.3f}-{float(r['wall_max_s']):.3f}]" if r["wall_s"] else "–"
        error = f"{100 * float(r['force_error']):+.1f}%"
        if r["force_error_uncertainty"]:
            error += f" +- {100 * float(r['force_error_uncertainty']):.1f}%"
        order = f"{float(r['fitted_order']):.3f}" if r["fitted_order"] else "–"
        lines.append(f"| {r['embedding']} | {r['nodes']} | {float(r['hold_force_N']):.3f} | {error} | {wall} | {order} "
                     f"| {r['certified'] or '–'} |")
    lines.append(f"\n![force error against wall time]({name}.png)\n")
    with open(args.out + ".md", "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
