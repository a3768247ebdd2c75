#!/usr/bin/python3
"""Graded embeddings, or rotation regions, of the teddy against `low` (issue 40, docs/embedding.md
"Graded embeddings" and "One rotation per fine region").

    scenarios/locking/graded_table.py [--study graded|regions] [--eipc build/bin/eipc]
        [--work out/locking_graded or out/locking_regions] [--dt 0.02] [--repeats 3] [--embeddings E,...]
        [--out results/locking_graded or results/locking_regions]

--study regions: the coarsened `low`, `affine` and `medium` with one rotation and with
N = 1, 6, 12, 32 rotation regions (`E_coarsened_rN`, "coarsened_rotations": N) instead of the
graded embeddings; everything else as below.

The graded embeddings are scenarios/assets/embeddings/teddy_graded_gK.msh (made by
scenarios/generators/graded_teddy.py: tets fine around the two patches where the bubbles
press the bear, coarse elsewhere), each as P1 tets (`graded_gK`) and with the stiffness
coarsened from the reference series' 16,276-node bear (`graded_gK_coarsened`), added to
scenarios/bubble_grasp/teddy.json with --set as scenarios/locking/table.py adds its
embeddings (teddy.json stays as committed); beside them `low`, `low_coarsened` and
`affine_coarsened` (table.py's entries).

1. Force: `eipc sweep` of the 4 s grasp at --dt (default 0.02 s; table.py's forces are at
   0.005 s, where low's differs by < 0.1%) with every embedding, certified by the sweep
   (`eipc certify` of every frame). Hold force: mean x force (normal + friction) on
   bubble_left from the teddy over 3-4 s (eipc_report.hold_force.mean_force), its signed
   error against the converged force (scenarios/locking/converged_force.py).
2. Wall: the 4 s grasp at h = 0.02 s on 2 threads (`eipc run --threads 2`, the run's own
   wall time, which leaves out a coarsened embedding's one-off coarsening at scene load),
   each method run right after a `low` run, the pairs in a rotated order per repeat; the
   1-minute load average before each run is recorded (runs wait up to --wait s for
   --max-load). wall / low: the median over repeats of each method's wall over the `low`
   run beside it.

Writes OUT.csv and OUT.md. Debian's /usr/bin/python3.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "analysis"))
from converged_force import converged_force  # noqa: E402
from reference_series import DEFAULT_WORK, level_mesh  # noqa: E402
from table import COARSENING_SOURCE, LOW, MEDIUM, timed_run  # noqa: E402
from eipc_report.hold_force import body_nodes, mean_force  # noqa: E402
from eipc_report.trajectory import read_pair_series  # noqa: E402
from quiet_machine import load_text  # noqa: E402

SCENE = os.path.join(ROOT, "scenarios", "bubble_grasp", "teddy.json")
SCENARIO = "bubble_grasp_teddy"
GRADED = ("g0", "g1", "g2", "g3")  # scenarios/generators/graded_teddy.py's presets
DEFAULT = ",".join(["low", "low_coarsened", "affine_coarsened"] +
                   [f"graded_{g}{s}" for s in ("", "_coarsened") for g in GRADED])


REGIONS = (1, 6, 12, 32)  # docs/embedding.md "One rotation per fine region"
REGIONS_TABLE = ",".join(["low", "low_coarsened"] + [f"low_coarsened_r{n}" for n in REGIONS] + ["affine_coarsened"] +
                         [f"affine_coarsened_r{n}" for n in REGIONS] + ["medium_coarsened"] +
                         [f"medium_coarsened_r{n}" for n in REGIONS[1:]])
STUDIES = {"graded": {"embeddings": DEFAULT, "out": "locking_graded",
                      "title": "Graded embeddings of the teddy against `low`"},
           "regions": {"embeddings": REGIONS_TABLE, "out": "locking_regions",
                       "title": "One rotation per fine region: the coarsened teddy against `low`"}}


def added_embeddings(embeddings):
    """--set arguments for the named embeddings: `graded_gK[_coarsened]`, and `E_coarsened` and
    `E_coarsened_rN` (N rotation regions) for E in low, affine, medium."""
    fine = level_mesh(DEFAULT_WORK, *COARSENING_SOURCE)
    entries = {}
    for name, mesh in (("low", LOW), ("affine", "affine"), ("medium", MEDIUM)):
        entries[f"{name}_coarsened"] = {"mesh": mesh, "coarsened_stiffness": fine}
        for n in REGIONS:
            entries[f"{name}_coarsened_r{n}"] = {"mesh": mesh, "coarsened_stiffness": fine, "coarsened_rotations": n}
    for g in GRADED:
        mesh = f"../assets/embeddings/teddy_graded_{g}.msh"
        entries[f"graded_{g}"] = {"mesh": mesh}
        entries[f"graded_{g}_coarsened"] = {"mesh": mesh, "coarsened_stiffness": fine}
    return [arg for name, entry in entries.items() if name in embeddings
            for arg in ("--set", f"bodies.teddy.embeddings.{name}={json.dumps(entry)}")]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--study", choices=sorted(STUDIES), default="graded")
    p.add_argument("--eipc", default=os.path.join(ROOT, "build", "bin", "eipc"))
    p.add_argument("--work", help="default out/locking_graded or out/locking_regions")
    p.add_argument("--dt", default="0.02", help="time step of the force sweep")
    p.add_argument("--embeddings", help="default: the study's")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--max-load", type=float, default=0.5)
    p.add_argument("--wait", type=float, default=600, help="seconds to wait for --max-load before each run")
    p.add_argument("--out", help="default results/locking_graded or results/locking_regions")
    args = p.parse_args()
    study = STUDIES[args.study]
    args.out = args.out or os.path.join(ROOT, "results", study["out"])
    args.work = args.work or os.path.join(ROOT, "out", study["out"])
    embeddings = (args.embeddings or study["embeddings"]).split(",")
    args.added, args.scene = added_embeddings(embeddings), SCENE
    reference, reference_nodes = converged_force()
    os.makedirs(os.path.join(args.work, "timing"), exist_ok=True)

    sweep = os.path.join(args.work, f"sweep_dt{args.dt}")
    subprocess.run([args.eipc, "sweep", SCENE, "--dt", args.dt, "--embedding", ",".join(embeddings),
                    "--set", "output.every=0.005", "--out", sweep] + args.added, check=True)
    runs = {r["embedding"]: r for r in csv.DictReader(open(os.path.join(sweep, "runs.csv")))}
    force, nodes = {}, {}
    for e in embeddings:
        path = os.path.join(sweep, runs[e]["trajectory"])
        force[e] = mean_force(read_pair_series(path, "bubble_left", "teddy"), (3.0, 4.0), "x", e)
        nodes[e] = body_nodes(path, "teddy")

    walls = {e: [] for e in embeddings}  # (wall, load before, low's wall beside it, its load)
    others = [e for e in embeddings if e != "low"]
    for repeat in range(args.repeats):
        k = repeat % len(others)
        for e in others[k:] + others[:k]:
            low = timed_run(args, "low")
            mine = timed_run(args, e)
            walls[e].append(mine + low)
            walls["low"].append(low + low)
            print(f"  repeat {repeat + 1}: low {low[0]:.3f} s (load {load_text(low[1])}), {e} {mine[0]:.3f} s "
                  f"(load {load_text(mine[1])})", flush=True)

    rows = []
    for e in embeddings:
        t = walls[e]
        rows.append({"embedding": e, "nodes": nodes[e], "hold_force_N": force[e],
                     "force_error": force[e] / reference - 1,
                     "wall_s": statistics.median(x[0] for x in t) if t else "",
                     "wall_min_s": min(x[0] for x in t) if t else "", "wall_max_s": max(x[0] for x in t) if t else "",
                     "wall_over_low": statistics.median(x[0] / x[2] for x in t) if t else "",
                     "loads_before": " ".join(load_text(x[1]) for x in t),
                     "certified": runs[e]["certified"], "force_dt": args.dt})
    with open(args.out + ".csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({k: repr(v) if isinstance(v, float) else v for k, v in r.items()})
    loads = [x[1] for r in walls.values() for x in r]
    timing = (f"Wall: the 4 s grasp at h = 0.02 s on 2 threads, median of {args.repeats} runs [range]; wall / low: "
              f"median ratio to the `low` run just before each; load average before each run "
              f"{load_text(min(loads))}-{load_text(max(loads))} (each in the csv)." if loads else "Not timed.")
    lines = [f"# {study['title']}\n",
             f"Made by `scenarios/locking/graded_table.py --study {args.study} --dt {args.dt} --repeats {args.repeats}` "
             f"(docstring: what "
             f"is measured). Hold force: mean x force on bubble_left from the teddy over 3-4 s at h = {args.dt} s; "
             f"force error against {reference:.3f} N (the full-space bear at {reference_nodes} nodes). {timing} "
             f"Certified: `eipc certify` of every frame of the force run.\n",
             "| embedding | nodes | hold force (N) | force error | wall (s) | wall / low | certified |",
             "|---|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        wall = f"{r['wall_s']:.3f} [{r['wall_min_s']:.3f}-{r['wall_max_s']:.3f}]" if r["wall_s"] != "" else "–"
        ratio = f"{r['wall_over_low']:.2f}" if r["wall_over_low"] != "" else "–"
        lines.append(f"| {r['embedding']} | {r['nodes']} | {r['hold_force_N']:.3f} | {100 * r['force_error']:+.1f}% "
                     f"| {wall} | {ratio} | {r['certified']} |")
    with open(args.out + ".md", "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {args.out}.csv, .md")


if __name__ == "__main__":
    main()
