#!/usr/bin/python3
"""Tuning a peer in the open: a small grid over its own knobs on one scene, ranked in two stages.

    /usr/bin/python3 analysis/peers_search.py SCENE ENGINE [--build build] [--work /tmp/eipc-search]
        [--out results] [--max-wall 900] [--max-load 0.5] [--wait 300] [--top 4] [--repeats 3]
        [--max-redo 5] [--configs I,J,...] [--stage1 CSV] [--screen-wait S] [--min-cpu-share 0.9] [--screen-only]
        [--resume]

SCENE: cube_squeeze, bubble_grasp_teddy, finray_plate_rack or towel_pick; ENGINE: eipc, mujoco, bullet, drake
or mujoco-flex (where GRIDS has the pair).

Stage 1 (screening) runs every configuration of GRIDS[(SCENE, ENGINE)] (or only those numbered
in --configs, grid order from 0) once from the scene's base settings
(scenarios/peers/<engine>_<scene>.toml; eipc: the scene's own); a configuration that equals the settings file is
marked, and when none does, the settings file itself is screened as one more row. Each run is
certified (`eipc certify --json`) and scored by its task outcome: lift of the object (highest
rise, of the commanded lift), held lift (at the end of the hold window), hold force / m g, slip,
frames with certified intersection, deepest certified penetration, the engine's own deepest
contact, and on FinRay whether the plate rests in the scene's slot (scenarios/finray/check.py).
Its wall and CPU seconds are kept only
when it started with the 1-minute load average below --max-load and its CPU time was at least
90% of its wall time (nothing else took the core); it waits up to --screen-wait s (default:
--wait) for that, then runs untimed. Whether a run succeeds is the one tuning rule's
(analysis/tuning_rule.py; lift scenes against eipc's reference held lift: the committed
reference/<scene>/full.h5, else one made by reference/make in WORK/refs).

Stage 2 (re-timing) takes the successful configurations: the --top fastest by
screening time (untimed ones last, in grid order, where the largest step comes first), plus the settings file's configuration when
it succeeds. Each is run --repeats times, interleaved: each repeat runs every
candidate once, in an order rotated by one per repeat, so a drift of the machine touches all
alike. Before each run the script waits (up to --wait s) for the load average to fall below
--max-load; a run that started at or above it, or got less than 90% of a core, is redone (up
to --max-redo times) and its time is not used.

Kept configuration: the first by the tuning rule (analysis/tuning_rule.py, docs/peers.md "One
tuning rule"), each stage-2 candidate with its median wall and CPU time over the repeats (none
when a repeat has no believable time), every other row without a time; outcomes are the
screening run's (each stage-2 run's lift is recorded beside its time, to show the runs repeat
it). Before stage 2 (--screen-only, or a stopped stage 2) the rule ranks the screening times,
and the table says so.

Writes OUT/peers_search/<scene>_<engine>.csv (stage 1), <scene>_<engine>_stage2.csv (every
stage-2 run, redone ones too) and <scene>_<engine>.md (both tables and the kept configuration); stage 1's are
written before stage 2 starts, so a stopped stage 2 loses none of them.
"""
import argparse
import csv
import json
import math
import os
import re
import resource
import statistics
import subprocess
import sys
import time
import tomllib

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers import AFFINE_COARSENED, ROOT, SCENES, binary, grasp, settings_file  # noqa: E402
from quiet_machine import load_text, wait_for_load  # noqa: E402
from tuning_rule import COMMANDED_LIFT, TASKS, criteria, rank  # noqa: E402
import tuning_rule  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "scenarios", "finray"))
from make_scene import SLOT as FINRAY_SLOT  # noqa: E402  (the slot the scene sets the plate into)

# Grids: each entry a list of option dicts; the cross product of the lists is searched.
GRIDS = {
    # eipc's own knobs (issue 58): the step and the bear's embedding; affine_coarsened takes its
    # stiffness from the bear's own 410-node tets (docs/embedding.md, "coarsened_stiffness").
    ("bubble_grasp_teddy", "eipc"): [
        [{"dt": h} for h in (0.02, 0.01, 0.005)],
        [{"embedding": "full"}, {"embedding": "low"},
         {"embedding": "affine_coarsened", "set": AFFINE_COARSENED}],
    ],
    # FinRay's fingers have one embedding besides full space (11,760 tets each), `coarse`, the scene's.
    ("finray_plate_rack", "eipc"): [
        [{"dt": h} for h in (0.02, 0.01, 0.005)],
        [{"embedding": "coarse"}],
    ],
    ("cube_squeeze", "mujoco"): [
        [{"max-substep": h} for h in (0.01, 0.005, 0.002, 0.001)],
        [{"servo-kp": [kp, kp, 1e4]} for kp in (200, 430, 1000)],
        [{"margin": m} for m in (0.0, 0.0005)],
    ],
    # Force-limited servos as MuJoCo's menagerie grippers have them (a stiff position servo whose
    # force is capped, 12 N: about the squeeze eipc's bubbles reach) and joint armature (issue 58).
    ("bubble_grasp_teddy", "mujoco"): [
        [{"max-substep": h} for h in (0.005, 0.002)],
        [{"servo-kp": [kp, kp, 1e4]} for kp in (300, 430, 600, 3000)],
        [{"margin": m} for m in (0.0, 0.001)],
        [{"noslip-iterations": n} for n in (0, 10)],
        [{"contact": c} for c in ("soft", "stiff")],
        [{}, {"servo-force-limit": [12, 12, 0]}],
        [{}, {"servo-armature": 0.1}],
    ],
    ("finray_plate_rack", "mujoco"): [
        [{"max-substep": h} for h in (0.005, 0.002)],
        [{"weld-solref": [tc, 1]} for tc in (0.004, 0.02)],
        [{"margin": m} for m in (0.0, 0.0001)],
        # The weld against the contact: MuJoCo's modeling docs ("MoCap bodies") say the softer of
        # the two gives way; `stiff` makes the contact (solref 2 steps) stiffer than either weld.
        [{"contact": c} for c in ("soft", "stiff")],
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
    # FinRay with flex fingers: the step (the scene's 10 ms, and 5 ms) with the stiffest contact
    # time constant it keeps (two steps), and the contact margin (d-hat, or 5 d-hat: MuJoCo's
    # soft contact pushes back before the bodies meet).
    ("finray_plate_rack", "mujoco-flex"): [
        [{"max-substep": h, "solref": [2 * h, 1]} for h in (0.01, 0.005)],
        [{"margin": m} for m in (0.0001, 0.0005)],
    ],
    # The towel pick (issue 61): eipc's embedded towel (`low`) at the sweep's steps; full space
    # takes about 40x as long (2 h a run) and is left out.
    ("towel_pick", "eipc"): [
        [{"dt": h} for h in (0.05, 0.02, 0.01)],
        [{"embedding": "low"}],
    ],
    # The towel as a 2-D flex (elastic2d both), the bubbles as 3-D flexes: the step with the
    # stiffest contact it keeps (a time constant of one step, as the settings file), the towel's
    # self-collision (none, as the settings file, or MuJoCo's default auto: the towel folds over
    # the table's edge and in the hang) and the contact margin (d-hat, or 4 d-hat: MuJoCo's soft
    # contact pushes back before the bodies meet).
    ("towel_pick", "mujoco-flex"): [
        [{"max-substep": h, "solref": [h, 1]} for h in (0.005, 0.002)],
        [{"selfcollide": s} for s in ("none", "auto")],
        [{"margin": m} for m in (0.0005, 0.002)],
    ],
    # Implicit with 3 Newton iterations: with Bullet's 1, driven nodes throw their neighbours
    # at h = 10 ms (docs/peers.md); face-rigid contact is off with implicit (the driver's default).
    ("cube_squeeze", "bullet"): [
        [{"implicit": "true", "newton-iterations": 3, "max-substep": h} for h in (0.01, 0.002, 0.001)]
        + [{"implicit": "false"}],
        [{"margin": m} for m in (0.0005, 0.001)],
    ],
    # Force-limited servo pads (issue 58): rigid pads on PD servos capped at 12 N (MuJoCo's
    # force-limit screen), as Bullet's grasp demo drives its fingers with force-limited motors.
    ("bubble_grasp_teddy", "bullet"): [
        [{"implicit": "true", "newton-iterations": 3, "max-substep": h} for h in (0.01, 0.002)]
        + [{"implicit": "false"}],
        [{"rigid-fingers": True, "servo-pads": True, "servo-kp": [3000, 3000, 1e4], "servo-force-limit": [12, 12, 0]}]
        + [{"repulsion-stiffness": k} for k in (10, 100, 800)] + [{"rigid-fingers": True}]
        # The capped servo pads came within the rule but for 0.3 mm of the pads in the bear as they
        # close: the same with twice the settings file's collision margin.
        + [{"rigid-fingers": True, "servo-pads": True, "servo-kp": [3000, 3000, 1e4], "servo-force-limit": [12, 12, 0],
            "margin": 0.001}],
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
# eipc's towel is its embedded one (`low`): the reference is the sweep's (h = 5e-4, reference/make).
TOWEL = dict(scene="scenarios/cloth/towel_pick.json", embedding="low", object="towel", finger="bubble_inner",
             hold=(2.2, 2.5))
QUIET_LOAD = 0.5  # a quiet machine: 1-minute load average below this (analysis/quiet_machine.py)
MIN_CPU_SHARE = 0.9  # a run's time is believable when it got at least this share of a core
SETTINGS_FILE = "(settings file)"  # label of the settings file's own row when no grid point equals it
RULE = "Rule (analysis/tuning_rule.py, docs/peers.md \"One tuning rule\"): " + " ".join(
    " ".join(tuning_rule.__doc__.split("\n\n")[1:3]).replace("  - ", "").split())


def rule_run(row, wall=None, cpu=None):
    """A stage-1 row as the tuning rule reads it (analysis/tuning_rule.py), with these times."""
    def number(key, scale=1.0):
        return float(row[key]) * scale if row.get(key) not in (None, "") else None
    frames = row.get("intersecting", "")
    return dict(status=row.get("status"), intersecting=int(frames.split("/")[0]) if frames else None,
                depth=number("depth_mm", 1e-3), lift=number("held_lift_mm", 1e-3), in_slot=row.get("in_slot") == "yes",
                place_error=number("place_error_mm", 1e-3),
                wall=wall, cpu=cpu)


def reference_lift(args, cfg):
    """eipc's reference held lift of a lift scene (m): the reference/<scene>/<embedding>.h5 there is
    (the scene's embedding: full, the towel's low), else one reference/make makes in WORK/refs
    (h = 5e-4, as the committed ones)."""
    if TASKS[args.scene] != "lift":
        return None
    name = cfg["embedding"] + ".h5"
    path = os.path.join(ROOT, "reference", args.scene, name)
    if not os.path.exists(path):
        path = os.path.join(args.work, "refs", args.scene, name)
        if not os.path.exists(path):
            subprocess.run([os.path.join(ROOT, "reference", "make"), os.path.join(ROOT, cfg["scene"]), cfg["embedding"],
                            "--no-xdmf", "--out", os.path.join(args.work, "refs")], check=True,
                           env=dict(os.environ, EIPC=binary(args.build, "eipc")))
    return grasp(path, cfg)["held_lift"]


def placed(path):
    """(whether the FinRay plate rests in the scene's slot at the end, the horizontal distance of
    its centroid from that slot's centre in m, None when check.py could not read the run)
    (scenarios/finray/check.py)."""
    out = subprocess.run([sys.executable, os.path.join(ROOT, "scenarios", "finray", "check.py"), path, "--json"],
                         capture_output=True, text=True)
    plate = json.loads(out.stdout)["plate"] if out.returncode in (0, 1) else {}
    if not plate:
        return False, None
    x, y = plate["centroid_m"][:2]
    error = math.hypot(x - plate["slot_centres_x_m"][FINRAY_SLOT], y)
    return bool(plate.get("rests_in_slot")) and plate.get("slot") == FINRAY_SLOT, error


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


def command(build, scene, engine, opts, max_wall):
    """One configuration's command line: the engine on the scene, from its settings file (when the
    scene has one for the engine), the options over it."""
    base = settings_file(engine, scene)
    cmd = [binary(build, engine)] + (["run"] if engine == "eipc" else [])
    cmd += [os.path.join(ROOT, scene_of(scene)["scene"]), "--json", "--max-wall", str(max_wall)]
    return cmd + (["--config", base] if os.path.exists(base) else []) + arguments(opts)


def scene_of(scene):
    return {"cube_squeeze": CUBE, "towel_pick": TOWEL}.get(scene) or SCENES[scene]


KEPT_LINE = re.compile(r"^Kept: \*\*(.+?)\*\* \((succeeds|no configuration succeeds; the closest misses: ([^)]*))\)")


def kept_in_table(scene, engine, out):
    """The kept configuration of the search table OUT/peers_search/<scene>_<engine>.md (its
    "Kept:" line): dict(opts, label, missed: the criteria the rule's closest run misses, empty when
    it succeeds), or None when there is no such search."""
    path = os.path.join(out, "peers_search", f"{scene}_{engine}.md")
    if (scene, engine) not in GRIDS or not os.path.exists(path):
        return None
    by_label = {label(opts): opts for opts in configs(GRIDS[(scene, engine)])}
    by_label.setdefault(SETTINGS_FILE, {})
    for line in open(path):
        m = KEPT_LINE.match(line)
        if m and m[1] in by_label:
            return dict(opts=by_label[m[1]], label=m[1], missed=m[3] or "")
        if m:
            raise ValueError(f"{path}: the kept configuration '{m[1]}' is not in the grid of {scene} in {engine} "
                             f"(GRIDS in {__file__}): search again")
    raise ValueError(f"{path}: no 'Kept:' line (a table of analysis/peers_search.py?)")


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


def believable(wall, cpu, load, args):
    """A time taken on a quiet machine with (nearly) a whole core; unknown times are not."""
    return None not in (wall, cpu, load) and load < args.max_load and cpu >= args.min_cpu_share * wall


def reusable(earlier, cmd):
    """Whether a finished run (its sidecar) is the run cmd would make: the same command, or one that
    differs only by a smaller --max-wall it finished within (exit 0), so the limit never acted."""
    def without_limit(c):
        i = c.index("--max-wall") if "--max-wall" in c else None
        return (c, None) if i is None else (c[:i] + c[i + 2:], float(c[i + 1]))
    (before, limit_before), (now, limit_now) = without_limit(earlier["cmd"]), without_limit(cmd)
    return earlier["cmd"] == cmd or (before == now and earlier["exit"] == 0 and None not in (limit_before, limit_now)
                                     and limit_before <= limit_now)


def spread(values, fmt="{:.2f}"):
    """Median [min–max]."""
    return (fmt + " [" + fmt + "–" + fmt + "]").format(statistics.median(values), min(values), max(values))


def screen(args, cfg, cmd_of, plan, ref_lift):
    """Stage 1: one run of each (number, options, is the settings file) of plan."""
    rows = []
    for n, opts, same in plan:
        stem = os.path.join(args.work_dir, f"run{n:03d}")
        cmd = cmd_of(opts) + ["--out", stem + ".h5"]
        finished = stem + ".run.json"  # the finished run's exit, times and load: --resume reuses it
        earlier = json.load(open(finished)) if args.resume and os.path.exists(finished) else None
        if earlier and reusable(earlier, cmd):
            print("= reused", stem, file=sys.stderr, flush=True)
            code, wall, cpu, load = (earlier[k] for k in ("exit", "wall", "cpu", "load"))
        else:
            print("+", " ".join(cmd), file=sys.stderr, flush=True)
            with open(stem + ".json", "w") as out:
                wait_for_load(args.max_load, args.screen_wait)  # the previous runs raise the load
                code, wall, cpu, load = timed_run(cmd, out)
            with open(finished, "w") as f:
                json.dump(dict(cmd=cmd, exit=code, wall=wall, cpu=cpu, load=load), f)
        row = dict(n=n, opts=opts, config=label(opts), settings_file="yes" if same else "", exit=code,
                   load=load_text(load), wall="", cpu="")
        if believable(wall, cpu, load, args):
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
                   held_lift_mm=f"{g['held_lift'] * 1e3:.1f}",
                   hold=f"{g['hold_over_mg']:.2f}", slip_mm=f"{g['slip'] * 1e3:.1f}",
                   intersecting=f"{cert['intersecting_frames']}/{cert['frames']}",
                   depth_mm="0" if cert["max_depth"] is None else f"{cert['max_depth'] * 1e3:.2f}",
                   own_depth_mm="" if own is None else f"{own * 1e3:.2f}")
        if TASKS[args.scene] == "place":
            in_slot, error = placed(stem + ".h5")
            row.update(in_slot="yes" if in_slot else "no", place_error_mm="" if error is None else f"{error * 1e3:.1f}")
    for row in rows:
        row["missed"] = missed(row, args.scene, ref_lift)
    return rows


def missed(row, scene, ref_lift):
    met = criteria(rule_run(row), scene, ref_lift)
    return ", ".join(k for k, v in met.items() if not v) or "none: succeeds"


def earlier_screening(args, plan, ref_lift):
    """Stage 1 read from --stage1 CSV: each row matched to its plan entry by its config label
    (the grid must be the one it was screened on), the rule's verdict recomputed. The earlier
    table's "Made by" line is kept in args.stage1_made_by for the report."""
    by_label = {label(opts): (n, opts, same) for n, opts, same in plan}
    # The settings file's own row, screened when no grid point equalled it, is the grid point
    # that equals it now (a grid grown to contain it).
    settings = next(((n, opts, same) for n, opts, same in plan if same), None)
    if settings:
        by_label[SETTINGS_FILE] = settings
    rows = []
    with open(args.stage1, newline="") as f:
        for row in csv.DictReader(f):
            if row["config"] == SETTINGS_FILE and settings:
                row["config"] = label(settings[1])
            if row["config"] not in by_label:
                sys.exit(f"error: {args.stage1}: config {row['config']!r} is not a point of the grid "
                         f"(GRIDS[{(args.scene, args.engine)}] in {__file__})")
            row["n"], row["opts"], _ = by_label[row["config"]]
            row["missed"] = missed(row, args.scene, ref_lift)
            rows.append(row)
    table = args.stage1[:-len(".csv")] + ".md"
    made_by = re.search(r"Made by (`[^`]*`) on (\S+)", open(table).read()) if os.path.exists(table) else None
    args.stage1_made_by = f"made by {made_by[1]} on {made_by[2]}" if made_by else "its command unknown"
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
                ok = believable(wall, cpu, load, args)
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
    ap.add_argument("engine", choices=["eipc", "mujoco", "bullet", "drake", "mujoco-flex"])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--work", default="/tmp/eipc-search")
    ap.add_argument("--out", default=os.path.join(ROOT, "results"))
    ap.add_argument("--max-wall", default="900", help="per run (s); a run stopped by it is incomplete")
    ap.add_argument("--max-load", type=float, default=QUIET_LOAD)
    ap.add_argument("--min-cpu-share", type=float, default=MIN_CPU_SHARE,
                    help="a run's time counts when its CPU time is at least this share of its wall time")
    ap.add_argument("--wait", type=float, default=300, help="seconds to wait for --max-load before each run")
    ap.add_argument("--top", type=int, default=4, help="stage 2: the fastest this many that succeed")
    ap.add_argument("--repeats", type=int, default=3, help="stage 2: repeats per candidate (at least 3)")
    ap.add_argument("--max-redo", type=int, default=5, help="stage 2: redos of a run started loaded")
    ap.add_argument("--screen-wait", type=float, help="stage 1's wait for --max-load (s; default: --wait)")
    ap.add_argument("--configs", help="stage 1 only on these grid configurations (numbers, grid order from 0); "
                                      "with --stage1, these are screened too where the earlier screening lacks them")
    ap.add_argument("--stage1", metavar="CSV",
                    help="take stage 1 from an earlier screening's CSV (OUT/peers_search/<scene>_<engine>.csv) instead of "
                         "running it: outcomes need no quiet machine, so only stage 2 runs")
    ap.add_argument("--resume", action="store_true",
                    help="stage 1 reuses a run of the same command that finished in --work (its exit, times and "
                         "load kept beside it), so a stopped screening goes on where it stopped")
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
    cfg = scene_of(args.scene)
    base = args.base = settings_file(args.engine, args.scene)
    settings = tomllib.load(open(base, "rb")) if os.path.exists(base) else {}
    args.work_dir = os.path.join(args.work, f"{args.scene}_{args.engine}")
    os.makedirs(args.work_dir, exist_ok=True)

    def cmd_of(opts):
        return command(args.build, args.scene, args.engine, opts, args.max_wall)

    grid = configs(GRIDS[(args.scene, args.engine)])
    whole = [(n, grid[n], is_settings_file(grid[n], settings)) for n in range(len(grid))]
    if settings and not any(is_settings_file(opts, settings) for opts in grid):
        whole.append((len(grid), {}, True))  # the settings file is no grid point: screened as one more row
    numbers = {int(x) for x in args.configs.split(",")} if args.configs else None
    plan = [p for p in whole if numbers is None or p[0] in numbers or p[0] == len(grid)]
    ref_lift = args.ref_lift = reference_lift(args, cfg)
    # --stage1 takes an earlier screening; with --configs it also screens those not in it.
    rows = earlier_screening(args, whole, ref_lift) if args.stage1 else []
    if not args.stage1 or args.configs:
        done = {r["config"] for r in rows}
        rows += screen(args, cfg, cmd_of, [p for p in plan if label(p[1]) not in done], ref_lift)

    good = [r for r in rows if r["missed"] == "none: succeeds"]
    chosen = sorted(good, key=lambda r: float(r["wall"]) if r["wall"] else float("inf"))[:args.top]
    chosen += [r for r in good if r["settings_file"] and r not in chosen]
    for r in chosen:
        r["stage2_runs"], r["stage2"] = [], "pending"
    # Before stage 2 the rule ranks the screening times (a stopped stage 2 loses nothing of stage 1).
    report(args, grid, rows, chosen, [], kept(args, rows, ref_lift, screening=True), pending=True)
    if args.screen_only:
        return
    runs = retime(args, cfg, cmd_of, chosen) if chosen else []
    for r in chosen:
        r["stage2_runs"] = [x for x in runs if x["n"] == r["n"] and x["used"]]
        r["stage2"] = "" if len(r["stage2_runs"]) == args.repeats else "not timed (a repeat without a believable time)"
    best = kept(args, rows, ref_lift)
    for r in chosen:
        r["stage2"] = r["stage2"] or ("**kept**" if r is best else "slower")
    report(args, grid, rows, chosen, runs, best)


def kept(args, rows, ref_lift, screening=False):
    """The rule's first row: with the screening times, or with the stage-2 medians (rows not
    re-timed, or without a believable time in every repeat, have none)."""
    def times(r):
        if screening:
            return [float(r["wall"])] if r.get("wall") else [], [float(r["cpu"])] if r.get("cpu") else []
        used = r.get("stage2_runs", [])
        if len(used) < args.repeats:
            return [], []
        return [float(x["wall"]) for x in used], [float(x["cpu"]) for x in used]
    runs = []
    for r in rows:
        wall, cpu = times(r)
        runs.append(dict(rule_run(r, statistics.median(wall) if wall else None,
                                  statistics.median(cpu) if cpu else None), row=r))
    return rank(runs, args.scene, ref_lift)[0]["row"] if runs else None


def report(args, grid, rows, chosen, runs, best, pending=False):
    """Writes both CSVs and the markdown table; `pending`: stage 1 done, stage 2 not yet run."""
    out_dir = os.path.join(args.out, "peers_search")
    os.makedirs(out_dir, exist_ok=True)
    name = f"{args.scene}_{args.engine}"
    keys = ["config", "settings_file", "exit", "status", "reached", "lift_mm", "lift_fraction", "held_lift_mm", "hold",
            "slip_mm", "intersecting", "depth_mm", "own_depth_mm"] + (["in_slot", "place_error_mm"] if TASKS[args.scene] == "place" else []) \
        + ["missed", "load", "wall", "cpu"]
    write_csv(os.path.join(out_dir, name + ".csv"), keys, rows)
    write_csv(os.path.join(out_dir, name + "_stage2.csv"),
              ["config", "repeat", "attempt", "load_before", "exit", "wall", "cpu", "lift_mm", "used"], runs)

    earlier = (f" Stage 1 is an earlier screening, read from `{os.path.relpath(args.stage1, ROOT)}` "
               f"({args.stage1_made_by}): its outcomes, and its times only chose the stage-2 candidates."
               if args.stage1 else "")
    shrunk = ("" if not args.configs else
              f" This run screened configurations {args.configs} of the grid's {len(grid)} (`--configs`)"
              + (" not in the earlier screening." if args.stage1 else "; stage 1 has only those."))
    result = "Kept: none (no configuration ran)."
    if best:
        used = best.get("stage2_runs") if not pending else None
        timing = (f"wall {spread([float(x['wall']) for x in used])} s, CPU {spread([float(x['cpu']) for x in used])} s "
                  f"(median [range] of {args.repeats})" if used else
                  f"screening wall {best['wall'] or 'untimed'} s, CPU {best['cpu'] or 'untimed'} s (one run"
                  + (": stage 2 has not run)" if pending else ")"))
        verdict = ("succeeds" if best["missed"] == "none: succeeds" else
                   f"no configuration succeeds; the closest misses: {best['missed']}")
        result = (f"Kept: **{best['config']}** ({verdict}), {timing}; {best['intersecting']} frames intersecting, "
                  f"depth {best['depth_mm']} mm, held lift {best.get('held_lift_mm', '')} mm"
                  + (f", in slot: {best.get('in_slot', '')}" if TASKS[args.scene] == "place" else "") + ".")
    reference = ("" if args.ref_lift is None else
                 f" eipc's reference held lift (the rule's target): {args.ref_lift * 1e3:.1f} mm.")
    quiet = ("" if args.max_load <= QUIET_LOAD and args.min_cpu_share >= MIN_CPU_SHARE else
             f" **Not quiet**: runs were timed up to load average {args.max_load} with {args.min_cpu_share:.0%} of a "
             f"core (quiet: < {QUIET_LOAD}, {MIN_CPU_SHARE:.0%}); the times rank the runs of this session only, "
             "stage-2 quiet re-timing pending.")
    lines = [f"# Search: {args.engine} on {args.scene}", "",
             f"Made by `/usr/bin/python3 analysis/peers_search.py {' '.join(sys.argv[1:])}` on {time.strftime('%Y-%m-%d')} from the base settings "
             + (f"`{os.path.relpath(args.base, ROOT)}` (docs/peers.md; `settings_file`: the row that equals it)."
                if os.path.exists(args.base) else "of the scene itself (no settings file).")
             + f" Lift of {COMMANDED_LIFT[args.scene] * 1e3:.0f} mm commanded; depth: `eipc certify`'s "
             "deepest penetration; own depth: the engine's own deepest contact (MuJoCo); load: 1-minute load "
             f"average before the run (rounded down). Wall and CPU seconds only when the run started at load average < "
             f"{args.max_load} and used >= {args.min_cpu_share:.0%} of a core.{earlier}{shrunk}{reference}{quiet}", "",
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
