#!/usr/bin/python3
"""Tuning a peer in the open: a small grid over its own knobs on one scene, ranked in two stages.

    /usr/bin/python3 analysis/peers_search.py SCENE ENGINE [--build build] [--work /tmp/eipc-search]
        [--out results] [--max-wall 900] [--max-load 0.5] [--wait 300] [--top 4] [--repeats 3]
        [--max-redo 5] [--configs I,J,...] [--screen-wait S]

SCENE: cube_squeeze, bubble_grasp_teddy or finray_plate_rack; ENGINE: mujoco, bullet, drake or
mujoco-flex (bubble_grasp_teddy only).

Stage 1 (screening) runs every configuration of GRIDS[(SCENE, ENGINE)] (or only those numbered
in --configs, grid order from 0) once from the scene's base settings
(scenarios/peers/<engine>_<scene>.toml, mujoco-flex: mujoco_flex_<scene>.toml); a configuration that equals the settings file is
marked, and when none does, the settings file itself is screened as one more row. Each run is
certified (`eipc certify --json`) and scored by its task outcome: lift of the object (of the
commanded lift), hold force / m g, slip, frames with certified intersection, deepest certified
penetration, and for MuJoCo its own deepest contact. Its wall and CPU seconds are kept only
when it started with the 1-minute load average below --max-load and its CPU time was at least
90% of its wall time (nothing else took the core); it waits up to --screen-wait s (default:
--wait) for that, then runs untimed. A configuration performs the task when
its run is complete, lifts the object at least 90% of the command and holds it with 0.5-2 m g over
the hold window (a thrown or crushed object does not count, however high it went).

Stage 2 (re-timing) takes the configurations that perform the task: the --top fastest by
screening time (untimed ones last, in grid order, where the largest step comes first), plus the settings file's configuration when
it performs the task. Each is run --repeats times, interleaved: each repeat runs every
candidate once, in an order rotated by one per repeat, so a drift of the machine touches all
alike. Before each run the script waits (up to --wait s) for the load average to fall below
--max-load; a run that started at or above it, or got less than 90% of a core, is redone (up
to --max-redo times) and its time is not used.

Ranking rule (best_of): among the stage-2 candidates, the fastest is the one with the least
median wall time; every candidate whose wall-time range (min to max over the repeats) overlaps
the fastest one's range is tied with it, and the winner is the tied candidate with the best
task outcome: fewest frames with certified intersection, then smallest certified depth, then
largest lift (then least median wall time). A candidate without a believable time in every
repeat is not ranked. The outcomes are the screening run's (each stage-2 run's lift is
recorded beside its time, to show the runs repeat it).

Writes OUT/peers_search/<scene>_<engine>.csv (stage 1), <scene>_<engine>_stage2.csv (every
stage-2 run, redone ones too) and <scene>_<engine>.md (both tables and the winner); stage 1's are
written before stage 2 starts, so a stopped stage 2 loses none of them.
"""
import argparse
import csv
import json
import os
import resource
import statistics
import subprocess
import sys
import time
import tomllib

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers import ROOT, SCENES, binary, grasp, settings_file  # noqa: E402
from quiet_machine import load_text, wait_for_load  # noqa: E402

# Grids: each entry a list of option dicts; the cross product of the lists is searched.
GRIDS = {
    ("cube_squeeze", "mujoco"): [
        [{"max-substep": h} for h in (0.01, 0.005, 0.002, 0.001)],
        [{"servo-kp": [kp, kp, 1e4]} for kp in (200, 430, 1000)],
        [{"margin": m} for m in (0.0, 0.0005)],
    ],
    ("bubble_grasp_teddy", "mujoco"): [
        [{"max-substep": h} for h in (0.005, 0.002)],
        [{"servo-kp": [kp, kp, 1e4]} for kp in (300, 430, 600)],
        [{"margin": m} for m in (0.0, 0.001)],
        [{"noslip-iterations": n} for n in (0, 10)],
    ],
    ("finray_plate_rack", "mujoco"): [
        [{"max-substep": h} for h in (0.005, 0.002)],
        [{"weld-solref": [tc, 1]} for tc in (0.004, 0.02)],
        [{"margin": m} for m in (0.0, 0.0001)],
    ],
    # Drake (the paper's baseline, docs/peers.md "Drake"): its step, SAP's contact approximation,
    # and on FinRay the rigid fingers' hydroelastic modulus (the paper's "compliant model").
    ("bubble_grasp_teddy", "drake"): [
        [{"dt": h} for h in (0.025, 0.01)],
        [{"contact-approximation": a} for a in ("lagged", "similar")],
        [{"pd-gains": g} for g in ([1e4, 1], [1e6, 1])],
    ],
    ("finray_plate_rack", "drake"): [
        [{"dt": h} for h in (0.02, 0.01)],
        [{"contact-approximation": a} for a in ("lagged", "similar")],
        [{"hydroelastic-modulus": m} for m in (3e7, 3e6, 1e6, 3e5)],
    ],
    # MuJoCo 4 with flex bodies (eipc-mujoco-flex; Newton, 1 mm margin, no flex self-collision from
    # its settings file): the bubbles' modulus (the scene's, or the equal-force 2e4 Pa at which its
    # Saint Venant-Kirchhoff bubble pushes as hard as eipc's, solver/peers/mujoco_flex/material_check.py),
    # the step (the 2.2.2 row's 5 ms, and 2 ms within the docs' 1-4 ms), contact softness (MuJoCo's
    # default, or the stiffest rows the discrete integrator keeps) and impratio (slow slippage).
    ("bubble_grasp_teddy", "mujoco-flex"): [
        [{}, {"set": ["bodies.1.material.youngs=2e4", "bodies.2.material.youngs=2e4"]}],
        [{"max-substep": h} for h in (0.005, 0.002)],
        [{"solref": [0.02, 1], "solimp": [0.9, 0.95, 0.001, 0.5, 2]},
         {"solref": [0.005, 1], "solimp": [0.99, 0.999, 0.001, 0.5, 2]}],
        [{"impratio": r} for r in (10, 100)],
    ],
    # Implicit with 3 Newton iterations: with Bullet's 1, driven nodes throw their neighbours
    # at h = 10 ms (docs/peers.md); face-rigid contact is off with implicit (the driver's default).
    ("cube_squeeze", "bullet"): [
        [{"implicit": "true", "newton-iterations": 3, "max-substep": h} for h in (0.01, 0.002, 0.001)]
        + [{"implicit": "false"}],
        [{"margin": m} for m in (0.0005, 0.001)],
    ],
    ("bubble_grasp_teddy", "bullet"): [
        [{"implicit": "true", "newton-iterations": 3, "max-substep": h} for h in (0.01, 0.002)],
        [{"rigid-fingers": True}] + [{"repulsion-stiffness": k} for k in (10, 100, 800)],
    ],
    # Rigid finger pads (the settings file's): explicit soft fingers need 4630 steps per 0.01 s.
    ("finray_plate_rack", "bullet"): [
        [{"implicit": "true", "newton-iterations": 3, "max-substep": h} for h in (0.01, 0.002, 0.001)],
        [{"margin": m} for m in (0.0001, 0.0005)],
    ],
}
# Extra scene facts the grasp measures need beyond analysis/peers.py's SCENES.
CUBE = dict(scene="scenarios/peers/cube_squeeze.json", embedding="full", object="cube", finger="finger_left",
            hold=(0.6, 1.0))
COMMANDED_LIFT = {"cube_squeeze": 0.03, "bubble_grasp_teddy": 0.25, "finray_plate_rack": 0.2}
TASK_LIFT = 0.9  # performing the task: complete, at least this fraction of the commanded lift,
TASK_HOLD = (0.5, 2.0)  # and a hold force in this range of m g
MIN_CPU_SHARE = 0.9  # a run's time is believable when it got at least this share of a core
SETTINGS_FILE = "(settings file)"  # label of the settings file's own row when no grid point equals it
RULE = " ".join(next(p for p in __doc__.split("\n\n") if p.startswith("Ranking rule")).split())


def performs(row):
    """Complete, the object lifted at least TASK_LIFT of the command, and held, not thrown or
    crushed: the grippers' force on it over the hold within TASK_HOLD times m g (a Bullet
    FinRay run launched the plate 42 m up: its lift alone passed)."""
    hold = float(row.get("hold") or "nan")
    return (row.get("status") == "complete" and float(row.get("lift_fraction") or 0) >= TASK_LIFT
            and TASK_HOLD[0] <= hold <= TASK_HOLD[1])


def overlap(a, b):
    """Whether the ranges [min, max] of two lists of times overlap (touching counts)."""
    return min(a) <= max(b) and min(b) <= max(a)


def best_of(candidates):
    """The ranking rule (module docstring). candidates: dicts with walls (the repeats' wall
    seconds), intersecting (frames with certified intersection), depth (deepest certified
    penetration) and lift. Returns (index of the winner, indices tied with the fastest), or
    (None, []) without candidates."""
    if not candidates:
        return None, []
    median = [statistics.median(c["walls"]) for c in candidates]
    fastest = min(range(len(candidates)), key=lambda i: median[i])
    tied = [i for i, c in enumerate(candidates) if overlap(c["walls"], candidates[fastest]["walls"])]
    quality = [(c["intersecting"], c["depth"], -c["lift"]) for c in candidates]
    return min(tied, key=lambda i: (quality[i], median[i])), tied


def configs(grid):
    out = [{}]
    for axis in grid:
        out = [dict(a, **b) for a in out for b in axis]
    return out


def arguments(opts):
    args = []
    for k, v in opts.items():
        if v is True:
            args.append("--" + k)
        elif isinstance(v, list):
            args += ["--" + k] + [str(x) for x in v]
        else:
            args += ["--" + k, str(v)]
    return args


def label(opts):
    return " ".join(f"{k}={'/'.join(map(str, v)) if isinstance(v, list) else v}" for k, v in opts.items()) \
        or SETTINGS_FILE


def _value(v):
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, list):
        return tuple(_value(x) for x in v)
    try:
        return float(v)
    except (TypeError, ValueError):
        return str(v).lower()


def is_settings_file(opts, settings):
    """Whether the options change nothing of the settings file's values (settings: its TOML)."""
    return all(k in settings and _value(v) == _value(settings[k]) for k, v in opts.items())


def timed_run(cmd, stdout):
    """Runs cmd; returns (exit code, wall s, CPU s of the child, 1-min load before)."""
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    code = subprocess.run(cmd, stdout=stdout).returncode
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return code, wall, cpu, load


def believable(wall, cpu, load, max_load):
    return load < max_load and cpu >= MIN_CPU_SHARE * wall


def spread(values, fmt="{:.2f}"):
    """Median [min–max]."""
    return (fmt + " [" + fmt + "–" + fmt + "]").format(statistics.median(values), min(values), max(values))


def screen(args, cfg, cmd_of, plan):
    """Stage 1: one run of each (number, options, is the settings file) of plan."""
    rows = []
    for n, opts, same in plan:
        stem = os.path.join(args.work_dir, f"run{n:03d}")
        cmd = cmd_of(opts) + ["--out", stem + ".h5"]
        print("+", " ".join(cmd), file=sys.stderr, flush=True)
        with open(stem + ".json", "w") as out:
            wait_for_load(args.max_load, args.screen_wait)  # the previous runs raise the load
            code, wall, cpu, load = timed_run(cmd, out)
        row = dict(n=n, opts=opts, config=label(opts), settings_file="yes" if same else "", exit=code,
                   load=load_text(load), wall="", cpu="")
        if believable(wall, cpu, load, args.max_load):
            row.update(wall=f"{wall:.2f}", cpu=f"{cpu:.2f}")
        rows.append(row)
        if not os.path.exists(stem + ".h5"):
            continue
        summary = json.load(open(stem + ".json")) if code in (0, 3) else {}
        with open(stem + ".certify.json", "w") as out:
            subprocess.run([binary(args.build, "eipc"), "certify", stem + ".h5", "--json"], stdout=out)
        cert = json.load(open(stem + ".certify.json"))["summary"]
        g = grasp(stem + ".h5", cfg)
        with h5py.File(stem + ".h5", "r") as f:
            d = f["frames/min_distance"][:]
        own = max(0.0, -float(np.nanmin(d))) if np.isfinite(d).any() else None
        row.update(status=summary.get("status", f"exit {code}"), reached=f"{g['t'][-1]:.2f}",
                   lift_mm=f"{g['lift'] * 1e3:.1f}", lift_fraction=f"{g['lift'] / COMMANDED_LIFT[args.scene]:.2f}",
                   hold=f"{g['hold_over_mg']:.2f}", slip_mm=f"{g['slip'] * 1e3:.1f}",
                   intersecting=f"{cert['intersecting_frames']}/{cert['frames']}",
                   depth_mm="0" if cert["max_depth"] is None else f"{cert['max_depth'] * 1e3:.2f}",
                   own_depth_mm="" if own is None else f"{own * 1e3:.2f}")
    return rows


def retime(args, cfg, cmd_of, chosen):
    """Stage 2: --repeats interleaved runs of each chosen stage-1 row; returns every run."""
    runs = []
    for rep in range(args.repeats):
        for k in range(len(chosen)):
            row = chosen[(k + rep) % len(chosen)]  # rotated order: candidates interleaved
            path = os.path.join(args.work_dir, f"stage2_run{row['n']:03d}.h5")
            cmd = cmd_of(row["opts"]) + ["--out", path]
            for attempt in range(args.max_redo + 1):
                wait_for_load(args.max_load, args.wait)
                print(f"+ [stage 2, repeat {rep + 1}, load {os.getloadavg()[0]:.2f}]", " ".join(cmd),
                      file=sys.stderr, flush=True)
                code, wall, cpu, load = timed_run(cmd, subprocess.DEVNULL)
                ok = believable(wall, cpu, load, args.max_load)
                lift = grasp(path, cfg)["lift"] * 1e3 if os.path.exists(path) else float("nan")
                runs.append(dict(n=row["n"], config=row["config"], repeat=rep + 1, attempt=attempt + 1,
                                 load_before=load_text(load), exit=code, wall=f"{wall:.3f}", cpu=f"{cpu:.3f}",
                                 lift_mm=f"{lift:.1f}", used="yes" if ok else ""))
                if ok:
                    break
    return runs


def write_csv(path, keys, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, keys, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({k: r.get(k, "") for k in keys})


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scene", choices=sorted({s for s, _ in GRIDS}))
    ap.add_argument("engine", choices=["mujoco", "bullet", "drake", "mujoco-flex"])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--work", default="/tmp/eipc-search")
    ap.add_argument("--out", default=os.path.join(ROOT, "results"))
    ap.add_argument("--max-wall", default="900", help="per run (s); a run stopped by it is incomplete")
    ap.add_argument("--max-load", type=float, default=0.5)
    ap.add_argument("--wait", type=float, default=300, help="seconds to wait for --max-load before each run")
    ap.add_argument("--top", type=int, default=4, help="stage 2: the fastest this many that perform the task")
    ap.add_argument("--repeats", type=int, default=3, help="stage 2: repeats per candidate (at least 3)")
    ap.add_argument("--max-redo", type=int, default=5, help="stage 2: redos of a run started loaded")
    ap.add_argument("--screen-wait", type=float, help="stage 1's wait for --max-load (s; default: --wait)")
    ap.add_argument("--configs", help="stage 1 only on these grid configurations (numbers, grid order from 0)")
    ap.add_argument("--screen-only", action="store_true",
                    help="stop after stage 1 (its tables written; stage 2 shown as pending): outcomes on a busy machine")
    args = ap.parse_args()
    if (args.scene, args.engine) not in GRIDS:
        print(f"error: no search grid for {args.scene} in {args.engine} (GRIDS in {__file__})", file=sys.stderr)
        sys.exit(2)
    if args.repeats < 3:
        print(f"error: --repeats {args.repeats}: at least 3 are needed (medians with ranges)", file=sys.stderr)
        sys.exit(2)
    args.screen_wait = args.wait if args.screen_wait is None else args.screen_wait
    cfg = CUBE if args.scene == "cube_squeeze" else SCENES[args.scene]
    # eipc-mujoco-flex's settings are scenarios/peers/mujoco_flex_<scene>.toml (an underscore).
    base = args.base = settings_file(args.engine.replace("-", "_"), args.scene)
    settings = tomllib.load(open(base, "rb")) if os.path.exists(base) else {}
    args.work_dir = os.path.join(args.work, f"{args.scene}_{args.engine}")
    os.makedirs(args.work_dir, exist_ok=True)

    def cmd_of(opts):
        cmd = [binary(args.build, args.engine), os.path.join(ROOT, cfg["scene"]), "--json", "--max-wall", args.max_wall]
        return cmd + (["--config", base] if settings else []) + arguments(opts)

    grid = configs(GRIDS[(args.scene, args.engine)])
    numbers = [int(x) for x in args.configs.split(",")] if args.configs else range(len(grid))
    plan = [(n, grid[n], is_settings_file(grid[n], settings)) for n in numbers]
    if settings and not any(is_settings_file(opts, settings) for opts in grid):
        plan.append((len(grid), {}, True))  # the settings file is no grid point: screened as one more row
    rows = screen(args, cfg, cmd_of, plan)

    good = [r for r in rows if performs(r)]
    chosen = sorted(good, key=lambda r: float(r["wall"]) if r["wall"] else float("inf"))[:args.top]
    chosen += [r for r in good if r["settings_file"] and r not in chosen]
    for r in chosen:
        r["stage2_runs"], r["stage2"] = [], "pending"
    report(args, grid, rows, chosen, [], None, pending=True)  # a stopped stage 2 loses nothing of stage 1
    if args.screen_only:
        return
    runs = retime(args, cfg, cmd_of, chosen) if chosen else []
    ranked = []
    for r in chosen:
        used = [x for x in runs if x["n"] == r["n"] and x["used"]]
        r["stage2_runs"] = used
        if len(used) == args.repeats:
            ranked.append(r)
    win, tied = best_of([dict(walls=[float(x["wall"]) for x in r["stage2_runs"]],
                              intersecting=int(r["intersecting"].split("/")[0]), depth=float(r["depth_mm"]),
                              lift=float(r["lift_mm"])) for r in ranked])
    best = ranked[win] if win is not None else None
    for r in chosen:
        r["stage2"] = "not ranked (a repeat without a believable time)" if r not in ranked else \
            "**winner**" if r is best else "tied with the fastest" if ranked.index(r) in tied else "slower"

    report(args, grid, rows, chosen, runs, best)


def report(args, grid, rows, chosen, runs, best, pending=False):
    """Writes both CSVs and the markdown table; `pending`: stage 1 done, stage 2 not yet run."""
    out_dir = os.path.join(args.out, "peers_search")
    os.makedirs(out_dir, exist_ok=True)
    name = f"{args.scene}_{args.engine}"
    keys = ["config", "settings_file", "exit", "status", "reached", "lift_mm", "lift_fraction", "hold", "slip_mm",
            "intersecting", "depth_mm", "own_depth_mm", "load", "wall", "cpu"]
    write_csv(os.path.join(out_dir, name + ".csv"), keys, rows)
    write_csv(os.path.join(out_dir, name + "_stage2.csv"),
              ["config", "repeat", "attempt", "load_before", "exit", "wall", "cpu", "lift_mm", "used"], runs)

    shrunk = (f" Stage 1 ran only configurations {args.configs} of the grid's {len(grid)} (`--configs`)."
              if args.configs else "")
    if pending and chosen:
        result = ("Winner: not yet ranked (stage 2 has not run: these are stage 1's results, written before "
                  "stage 2 starts).")
    elif best:
        result = (f"Winner: **{best['config']}**, wall {spread([float(x['wall']) for x in best['stage2_runs']])} s "
                  f"(median [range] of {args.repeats}), {best['intersecting']} frames intersecting, depth "
                  f"{best['depth_mm']} mm, lift {best['lift_mm']} mm.")
    elif chosen:
        result = "Winner: none ranked (no candidate has a believable time in every repeat)."
    else:
        result = (f"Winner: none (no configuration performs the task: complete, lift >= {TASK_LIFT:.0%} of the command, "
                  f"hold {TASK_HOLD[0]:g}-{TASK_HOLD[1]:g} m g).")
    lines = [f"# Search: {args.engine} on {args.scene}", "",
             f"Made by `/usr/bin/python3 analysis/peers_search.py {' '.join(sys.argv[1:])}` on {time.strftime('%Y-%m-%d')} from the base settings "
             f"`{os.path.relpath(args.base, ROOT)}` (docs/peers.md; `settings_file`: the row that "
             f"equals it). Lift of {COMMANDED_LIFT[args.scene] * 1e3:.0f} mm commanded; depth: `eipc certify`'s "
             "deepest penetration; own depth: the engine's own deepest contact (MuJoCo); load: 1-minute load "
             f"average before the run (rounded down). Wall and CPU seconds only when the run started at load average < "
             f"{args.max_load} and used >= {MIN_CPU_SHARE:.0%} of a core.{shrunk}", "",
             result, "", RULE, "",
             f"## Stage 2: {len(chosen)} candidates, {args.repeats} interleaved repeats "
             f"(every run: {name}_stage2.csv)", ""]
    if chosen:
        lines += ["| config | stage 1 wall [s] | wall [s] | CPU [s] | load before (max) | runs redone | "
                  "lift of the runs [mm] | intersecting | depth_mm | lift_mm | rank |", "|" + "---|" * 11]
        for r in chosen:
            used = r["stage2_runs"]
            redone = sum(1 for x in runs if x["n"] == r["n"] and not x["used"])
            lifts = sorted({x["lift_mm"] for x in used})
            lines.append(f"| {r['config']}{' (settings file)' if r['settings_file'] and r['opts'] else ''} | "
                         f"{r['wall']} | "
                         + (f"{spread([float(x['wall']) for x in used])} | {spread([float(x['cpu']) for x in used])} | "
                            f"{max(float(x['load_before']) for x in used):.2f} | " if used else "| | | ")
                         + f"{redone} | {', '.join(lifts)} | {r['intersecting']} | {r['depth_mm']} | {r['lift_mm']} | "
                         f"{r['stage2']} |")
    lines += ["", f"## Stage 1: {len(rows)} configurations, one run each", "",
              "| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    lines += ["| " + " | ".join(str(r.get(k, "")) for k in keys) + " |" for r in rows]
    with open(os.path.join(out_dir, name + ".md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(os.path.join(out_dir, name + ".md"))


if __name__ == "__main__":
    main()
