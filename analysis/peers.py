#!/usr/bin/python3
"""results/peers.md: eipc and its peer engines (Bullet, MuJoCo, Drake) on the same scenes.

    /usr/bin/python3 analysis/peers.py [--build build] [--work /tmp/eipc-peers] [--out results]
                                       [--engines eipc,mujoco,bullet] [--jobs 2] [--tabulate-only]

For each scene (the teddy bubble grasp and the FinRay plate-in-rack) and engine it runs
`eipc sweep --engine ENGINE --dt 0.02,0.01,0.005` (docs/sweep.md), each engine first at
its own fine reference step so runs.csv holds every engine's E(h) against its own
reference, certifies every trajectory (`eipc certify`), and writes:

  OUT/peers.md            table per scene and engine (docs/peers.md explains the columns)
  OUT/peers/peers.csv     the same numbers
  OUT/peers/forces_<scene>.png   normal force on the grasped object, every engine overlaid
  OUT/peers/error_vs_wall.png    E(h) against wall time, every engine
  OUT/peers/outcome_vs_wall.png  lift, hold force / m g and slip against wall time, every engine
  OUT/peers/frame_<scene>_<engine>.png  an intersecting frame of a peer beside eipc's

MuJoCo is also run once with --contact soft at h = 0.01 (engine "mujoco-soft": its default contact, where
its settings files have the stiff one), and Drake
on FinRay with FEM fingers (engine "drake-fem-fingers"; VARIANTS).

Runs that exist in WORK are reused (the sweep resumes). Bullet on the FinRay scene is
not run: its explicit stability limit needs ~4600 Bullet steps per 0.01 s (docs/peers.md).
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys

import h5py
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCENES = {
    # object: the grasped body; finger: a body whose prescribed motion carries it;
    # hold: a window in which the object should move with the finger.
    "bubble_grasp_teddy": dict(scene="scenarios/bubble_grasp/teddy.json", embedding="full", object="teddy",
                               finger="bubble_left", hold=(3.0, 4.0), ref_dt=0.0025),
    "finray_plate_rack": dict(scene="scenarios/finray_plate_rack.json", embedding="coarse", object="plate",
                              finger="finger_left", hold=(2.0, 2.4), ref_dt=0.0025),
}
# eipc's `affine_coarsened` on the teddy: four affine nodes with the stiffness condensed from the
# bear's own 410-node tets (docs/embedding.md, "coarsened_stiffness"), added by --set.
AFFINE_COARSENED = ['bodies.teddy.embeddings.affine_coarsened={"mesh": "affine", "coarsened_stiffness": true}']
DTS = [0.02, 0.01, 0.005]
# Bullet's cost does not depend on h (its step is its stability limit) and it is slow: one h.
# Drake also at its example's own step, 0.025 s.
ENGINE_DTS = {"bullet": [0.01], "drake": [0.025, 0.02, 0.01, 0.005]}
SKIP = {("finray_plate_rack", "bullet"): "explicit stability limit 2.2e-6 s: 4630 Bullet steps per 0.01 s",
        ("finray_plate_rack", "mujoco-flex"): "20-90 min a run (two stiff full-resolution flex fingers, 20000 "
                                              "PCG iterations a step): searched, not swept (docs/peers.md, MuJoCo 4 flex)"}
# A sweep over h has to change the engine's own step: these engines' settings files hold a
# max-substep (MuJoCo's 5 ms) that would make every h step at 5 ms inside, E(h) flat. Their
# sweeps and references run the files without it: one engine step per h.
STEP_IS_H = {"mujoco", "mujoco-flex"}
# What the bodies are in each engine's rows (MuJoCo 2.2.2 has no deformables).
BODIES = {"mujoco": "rigid", "mujoco-soft": "rigid", "bullet-rigid-pads": "soft bear, rigid pads",
          # Drake's FinRay as the paper ran it (docs/peers.md): rigid fingers, compliant hydroelastic.
          ("finray_plate_rack", "drake"): "rigid fingers (compliant hydroelastic)",
          "drake-fem-fingers": "deformable (FEM fingers)", "mujoco-flex-equal-force": "deformable (bubbles E 2e4 Pa)"}


def bodies(scene, engine):
    """What the bodies are in an engine's rows of a scene (BODIES; deformable unless it says)."""
    return BODIES.get((scene, engine), BODIES.get(engine, "deformable"))


# Bullet's own step is bounded by its explicit stability limit (6e-5 s on the teddy) whatever h
# is, so a finer h is not a finer discretisation of its elasticity: no reference is run for it.
NO_REFERENCE = {"bullet"}


def run(cmd, **kw):
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    return subprocess.run(cmd, **kw).returncode


def binary(build, engine):
    return os.path.join(build, "bin", "eipc" if engine == "eipc" else "eipc-" + engine)


# Each peer's per-scene settings (docs/peers.md), given to its driver as --config; `eipc sweep
# --peer-config PEER_CONFIG` finds them by the same name.
PEER_CONFIG = os.path.join(ROOT, "scenarios", "peers")


def settings_file(engine, scene):
    return os.path.join(PEER_CONFIG, f"{engine}_{scene}.toml")


def step_is_h_config(args):
    """WORK/peer-config: the settings files, STEP_IS_H engines' without their max-substep line."""
    folder = os.path.join(args.work, "peer-config")
    os.makedirs(folder, exist_ok=True)
    for name in os.listdir(PEER_CONFIG):
        if name.endswith(".toml"):
            lines = open(os.path.join(PEER_CONFIG, name)).read().splitlines(keepends=True)
            if name.split("_")[0] in STEP_IS_H:
                lines = [x for x in lines if not x.lstrip().startswith("max-substep")]
            with open(os.path.join(folder, name), "w") as f:
                f.writelines(lines)
    return folder


def reference_path(args, name, cfg, engine):
    return os.path.join(args.work, "refs", name, ("" if engine == "eipc" else engine + "_") + cfg["embedding"] + ".h5")


def reference(args, name, cfg, engine):
    """Fine-step reference of one engine: REF/<scenario>/<engine>_<embedding>.h5 (eipc: <embedding>.h5):
    the committed one (reference/<scenario>/, h = 5e-4) when there is one, else run at ref_dt."""
    path = reference_path(args, name, cfg, engine)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    committed = os.path.join(ROOT, "reference", name, os.path.basename(path))
    if os.path.exists(committed) and not os.path.exists(path):
        os.symlink(committed, path)
    if not os.path.exists(path):
        cmd = [binary(args.build, engine)] + (["run"] if engine == "eipc" else [])
        # Frames every 0.005 s, so every h of the sweep (0.025 too) lands on reference frames.
        cmd += [os.path.join(ROOT, cfg["scene"]), "--dt", str(cfg["ref_dt"]), "--embedding", cfg["embedding"],
                "--set", "output.every=0.005", "--json", "--out", path]
        config = os.path.join(args.peer_config, os.path.basename(settings_file(engine, name)))
        if engine != "eipc" and os.path.exists(config):  # as the sweep runs it
            cmd += ["--config", config]
        if run(cmd, stdout=subprocess.DEVNULL) != 0 and os.path.exists(path):
            os.remove(path)  # an incomplete reference is no reference
    return path if os.path.exists(path) else None


def body_mass(f, body):
    """A body's mass from its rest mesh: its tets' volume, or a shell's area x thickness, x density."""
    scene = json.loads(f.attrs["scene_json"])
    material = next(b["material"] for b in scene["bodies"] if b["name"] == body)
    x = f[f"bodies/{body}/rest_vertices"][:]
    if material.get("model") == "stvk_shell":
        t = f[f"bodies/{body}/surface_triangles"][:]
        a, b, c = (x[t[:, i]] for i in range(3))
        return material["density"] * material["thickness"] * np.linalg.norm(np.cross(b - a, c - a), axis=1).sum() / 2
    t = f[f"bodies/{body}/tets"][:]
    a, b, c, d = (x[t[:, i]] for i in range(4))
    return material["density"] * np.abs(np.einsum("ij,ij->i", np.cross(b - a, c - a), d - a)).sum() / 6


def grasp(path, cfg):
    """Lift of the object (its highest rise), held lift (its rise at the end of the hold
    window: what is still up, analysis/tuning_rule.py), z force on it from the other bodies
    over the hold window against m g, and slip = how far it moved relative to the finger
    over the window."""
    with h5py.File(path, "r") as f:
        names = list(f.attrs["body_names"])
        t = f["frames/time"][:]
        obj = f[f"bodies/{cfg['object']}/positions"]
        fin = f[f"bodies/{cfg['finger']}/positions"]
        c = np.array([obj[i].mean(axis=0) for i in range(len(t))])
        lift = c[:, 2].max() - c[0, 2]
        m = body_mass(f, cfg["object"])
        g = -json.loads(f.attrs["scene_json"]).get("gravity", [0, 0, -9.81])[2]
        k = names.index(cfg["object"])
        pairs = f["contact/pairs"][:]
        force = np.zeros((len(t), 3))
        if len(pairs):
            total = f["contact/normal_force"][:] + f["contact/friction_force"][:]
            for p, (a, b) in enumerate(pairs):
                if b < 0:
                    continue  # the ground does not hold the object up in a grasp
                if a == k:
                    force += total[:, p]
                elif b == k:
                    force -= total[:, p]
        lo, hi = cfg["hold"]
        window = (t >= lo - 1e-9) & (t <= hi + 1e-9)
        hold = force[window, 2].mean() if window.any() else float("nan")
        slip = held = float("nan")
        if window.any():
            held = c[np.flatnonzero(window)[-1], 2] - c[0, 2]
        if window.sum() >= 2:
            i0, i1 = np.flatnonzero(window)[[0, -1]]
            rel0 = c[i0] - fin[i0].mean(axis=0)
            rel1 = c[i1] - fin[i1].mean(axis=0)
            slip = float(np.linalg.norm(rel1 - rel0))
        return dict(lift=lift, held_lift=held, hold_over_mg=hold / (m * g), slip=slip, t=t, fz=force[:, 2], fn=np.linalg.norm(force, axis=1))


def certificate(path):
    if not os.path.exists(path):
        return "", "", "n/a"
    cert = json.load(open(path))
    s = cert.get("summary", {})
    frames, failed = s.get("frames"), s.get("failed_frames")
    clear = "" if frames is None else frames - failed
    if "max_depth" not in s:  # a certificate from before the depth measurement
        return clear, failed, "n/a"
    depth = s["max_depth"]  # docs/certify.md "Depth": null when no vertex is inside anything
    return clear, failed, ("none" if depth is None else f"{depth:.3g}")


# Single runs at h = 0.01 beside the sweep: (label, engine, scenes, extra options, what they show).
VARIANTS = [
    ("mujoco-soft", "mujoco", ("bubble_grasp_teddy", "finray_plate_rack"), ["--contact", "soft"]),
    # Drake with deformable (FEM) fingers, where the paper's Drake had rigid ones.
    ("drake-fem-fingers", "drake", ("finray_plate_rack",), ["--finger-model", "fem"]),
    # MuJoCo 4 flex with the bubbles at which its Saint Venant-Kirchhoff bubble pushes as hard as
    # eipc's (docs/peers.md, MuJoCo 4 flex): with the scene's it does not lift the bear.
    ("mujoco-flex-equal-force", "mujoco-flex", ("bubble_grasp_teddy",),
     ["--set", "bodies.1.material.youngs=2e4", "bodies.2.material.youngs=2e4"]),
    # Bullet with rigid pads, implicit (the grasp its soft bubbles do not perform; docs/peers.md).
    ("bullet-rigid-pads", "bullet", ("bubble_grasp_teddy",),
     ["--rigid-fingers", "--implicit", "true", "--newton-iterations", "3"]),
]


def variant(args, name, cfg, forces, label, engine, extra):
    """One run of ENGINE with EXTRA options at h = 0.01 (its settings file first, as the sweep
    runs it), certified like the sweep's runs."""
    base = os.path.join(args.work, name, f"{name}_{label}_{cfg['embedding']}_dt0.01")
    if not os.path.exists(base + ".certify.json"):
        cmd = [binary(args.build, engine), os.path.join(ROOT, cfg["scene"])]
        if os.path.exists(settings_file(engine, name)):
            cmd += ["--config", settings_file(engine, name)]
        with open(base + ".json", "w") as out:
            run(cmd + extra + ["--dt", "0.01", "--embedding", cfg["embedding"], "--json", "--out", base + ".h5"],
                stdout=out)
        with open(base + ".certify.json", "w") as out:
            run([binary(args.build, "eipc"), "certify", base + ".h5", "--json"], stdout=out)
    s = json.load(open(base + ".json"))
    clear, failed, depth = certificate(base + ".certify.json")
    g = grasp(base + ".h5", cfg)
    with h5py.File(base + ".h5", "r") as f:
        substeps = f"{f['frames/newton_iterations'][1:].mean():g}"  # a peer's engine steps per h (frame 0: none)
    forces[(name, label)] = g
    return dict(scene=name, engine=label, bodies=bodies(name, label), dt="0.01", status=s["status"], reached=f"{g['t'][-1]:.2f}",
                wall=f"{s['wall_seconds']:.2f}", rtf=f"{s['real_time_factor']:.3g}", substeps=substeps, certified=clear,
                intersecting=failed, depth=depth, lift=f"{g['lift']:.3f}", hold=number(g["hold_over_mg"], ".2f"),
                slip=f"{g['slip'] * 1000:.1f}" if not math.isnan(g["slip"]) else "", error="", order="", note="")


def frame_pictures(args, name, cfg, out_dir, plt):
    """The first intersecting frame of each peer run at h = 0.01 beside eipc's same frame; returns
    the file names written."""
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection
    written = []
    sweep_dir = os.path.join(args.work, name)
    eipc_run = os.path.join(sweep_dir, f"{name}_{cfg['embedding']}_dt0.01.h5")
    for engine in ("mujoco", "bullet"):
        base = os.path.join(sweep_dir, f"{name}_{engine}_{cfg['embedding']}_dt0.01")
        if not (os.path.exists(base + ".certify.json") and os.path.exists(eipc_run)):
            continue
        bad = [fr["frame"] for fr in json.load(open(base + ".certify.json"))["frames"] if not fr["ok"]]
        if not bad:
            continue
        frame = bad[len(bad) // 2]  # mid-way through the intersecting frames
        fig = plt.figure(figsize=(10, 5))
        for k, (path, label) in enumerate(((eipc_run, "eipc"), (base + ".h5", engine))):
            ax = fig.add_subplot(1, 2, k + 1, projection="3d")
            with h5py.File(path, "r") as f:
                t = f["frames/time"][frame]
                for i, body in enumerate(f.attrs["body_names"]):
                    x = f[f"bodies/{body}/positions"][frame]
                    tri = f[f"bodies/{body}/surface_triangles"][:]
                    ax.add_collection3d(Poly3DCollection(x[tri], alpha=0.35, facecolor=f"C{i}", edgecolor="none"))
                    if i == 0:  # frame the grasped object and what touches it
                        centre, half = x.mean(axis=0), 0.6 * (x.max(axis=0) - x.min(axis=0)).max()
                ax.set_xlim(centre[0] - half, centre[0] + half)
                ax.set_ylim(centre[1] - half, centre[1] + half)
                ax.set_zlim(centre[2] - half, centre[2] + half)
            ax.set_title(f"{label}, t = {t:.2f} s")
            ax.view_init(elev=10, azim=-90)
        fig.tight_layout()
        fig.savefig(os.path.join(out_dir, f"frame_{name}_{engine}.png"), dpi=90)
        plt.close(fig)
        written.append(f"frame_{name}_{engine}.png")
    return written


def outcome_vs_wall(table, engines, out_dir, plt):
    """Per scene, the task outcome of every run against its wall time: lift, hold force / m g and
    slip (one point per engine and h): what each engine achieves for the time it takes."""
    panels = (("lift", "lift [m]"), ("hold", "hold force / m g"), ("slip", "slip [mm]"))
    fig, axes = plt.subplots(len(SCENES), len(panels), figsize=(10, 3.2 * len(SCENES)), squeeze=False)
    for row, name in enumerate(SCENES):
        for col, (key, label) in enumerate(panels):
            ax = axes[row][col]
            for engine, marker in zip(engines, "osd^v"):
                pts = sorted((float(r["wall"]), float(r[key])) for r in table if r["scene"] == name and
                             r["engine"] == engine and r.get(key) not in (None, "") and r.get("wall"))
                if pts:
                    ax.plot(*zip(*pts), marker + "-", label=engine)
            ax.set_xscale("log")
            ax.set_xlabel("wall time [s]")
            ax.set_ylabel(label)
            ax.set_title(f"{name}", fontsize=8)
            if row == 0 and col == 0:
                ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "outcome_vs_wall.png"), dpi=110)
    plt.close(fig)


def number(x, fmt):
    return "" if math.isnan(x) else format(x, fmt)


def order(rows):
    """Least-squares slope of log E against log h over the rows with an error."""
    pts = [(math.log(float(r["dt"])), math.log(float(r["error"]))) for r in rows if r["error"] not in ("", "0")]
    if len(pts) < 2:
        return ""
    x, y = np.array(pts).T
    return f"{np.polyfit(x, y, 1)[0]:.2f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--work", default="/tmp/eipc-peers")
    ap.add_argument("--out", default=os.path.join(ROOT, "results"))
    ap.add_argument("--engines", default="eipc,mujoco,bullet")
    ap.add_argument("--jobs", default="2")
    ap.add_argument("--tabulate-only", action="store_true",
                    help="only tabulate what WORK holds (a sweep would re-run incomplete runs, e.g. Bullet's)")
    args = ap.parse_args()
    engines = args.engines.split(",")
    load_before = os.getloadavg()[0]
    args.peer_config = step_is_h_config(args)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    table, forces, refs = [], {}, {}
    for name, cfg in SCENES.items():
        sweep_dir = os.path.join(args.work, name)
        for engine in engines:
            if (name, engine) in SKIP:
                continue
            if engine not in NO_REFERENCE:
                path = reference_path(args, name, cfg, engine)
                refs[(name, engine)] = reference(args, name, cfg, engine) if not args.tabulate_only else \
                    path if os.path.exists(path) else None
            if args.tabulate_only:
                continue
            run([binary(args.build, "eipc"), "sweep", os.path.join(ROOT, cfg["scene"]), "--engine", engine,
                 "--dt", ",".join(map(str, ENGINE_DTS.get(engine, DTS))), "--embedding", cfg["embedding"], "--jobs", args.jobs,
                 "--peer-config", args.peer_config, "--reference", os.path.join(args.work, "refs"), "--out", sweep_dir])
        rows = list(csv.DictReader(open(os.path.join(sweep_dir, "runs.csv")))) if os.path.exists(
            os.path.join(sweep_dir, "runs.csv")) else []
        for engine in engines:
            mine = [r for r in rows if r["engine"] == engine and r["embedding"] == cfg["embedding"]]
            if (name, engine) in SKIP:
                table.append(dict(scene=name, engine=engine, bodies=bodies(name, engine), dt="",
                                  note="not run: " + SKIP[(name, engine)]))
                continue
            for r in sorted(mine, key=lambda r: -float(r["dt"])):
                traj = os.path.join(sweep_dir, r["trajectory"]) if r["trajectory"] else ""
                clear, failed, depth = certificate(traj[:-3] + ".certify.json" if traj else "")
                g = grasp(traj, cfg) if traj and os.path.exists(traj) else None
                if g and abs(float(r["dt"]) - 0.01) < 1e-12:
                    forces[(name, engine)] = g
                reached = float(g["t"][-1]) if g else 0.0
                table.append(dict(
                    scene=name, engine=engine, bodies=bodies(name, engine), dt=r["dt"], status=r["status"], reached=f"{reached:.2f}",
                    wall=f"{float(r['wall_seconds']):.2f}" if r["wall_seconds"] else "",
                    rtf=f"{float(r['real_time_factor']):.3g}" if r["real_time_factor"] else "",
                    substeps=r["newton_mean"], certified=clear, intersecting=failed, depth=depth,
                    lift=f"{g['lift']:.3f}" if g else "", hold=number(g["hold_over_mg"], ".2f") if g else "",
                    slip=f"{g['slip'] * 1000:.1f}" if g and not math.isnan(g["slip"]) else "",
                    error=f"{float(r['error']):.3g}" if r["error"] else "", order=order(mine), note=""))

    for label, engine, scenes, extra in VARIANTS:  # outside the sweep: h = 0.01 only
        if engine in engines:
            table += [variant(args, name, SCENES[name], forces, label, engine, extra) for name in scenes]

    out_dir = os.path.join(args.out, "peers")
    os.makedirs(out_dir, exist_ok=True)
    keys = ["scene", "engine", "bodies", "dt", "status", "reached", "wall", "rtf", "substeps", "certified", "intersecting",
            "depth", "lift", "hold", "slip", "error", "order", "note"]
    with open(os.path.join(out_dir, "peers.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, keys)
        w.writeheader()
        for row in table:
            w.writerow({k: row.get(k, "") for k in keys})

    for name in SCENES:
        fig, ax = plt.subplots(figsize=(7, 3.5))
        for (scene, engine), g in sorted(forces.items()):
            if scene == name:
                ax.plot(g["t"], g["fz"], label=engine)
        ax.set_yscale("symlog", linthresh=1.0)  # eipc's newtons and MuJoCo's kilonewtons on one axis
        ax.set_xlabel("t [s]")
        ax.set_ylabel(f"z force on {SCENES[name]['object']} from the grippers [N]")
        ax.set_title(f"{name}, h = 0.01 s")
        ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(out_dir, f"forces_{name}.png"), dpi=110)
        plt.close(fig)
    fig, ax = plt.subplots(figsize=(6, 4))
    for engine in engines:
        for name, marker in zip(SCENES, "os"):
            pts = [(float(r["wall"]), float(r["error"])) for r in table
                   if r["engine"] == engine and r["scene"] == name and r.get("error") and r.get("wall")]
            if pts:
                ax.loglog(*zip(*pts), marker + "-", label=f"{engine}, {name}")
    ax.set_xlabel("wall time [s]")
    ax.set_ylabel("E(h) against the engine's own reference [m]")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "error_vs_wall.png"), dpi=110)
    plt.close(fig)

    outcome_vs_wall(table, engines, out_dir, plt)
    pictures = [p for name, cfg in SCENES.items() for p in frame_pictures(args, name, cfg, out_dir, plt)]

    lines = ["# eipc and peer engines on the same scenes", "",
             f"Made by `/usr/bin/python3 analysis/peers.py --engines {args.engines}` (docs/peers.md: mapping, "
             "settings, columns, and what the numbers say); each peer with its per-scene settings file "
             f"(scenarios/peers). Wall times are single runs, run back to back on a shared 2-core machine "
             f"(1-minute load average {load_before:.2f} before the first, {os.getloadavg()[0]:.2f} when the "
             "table was written), so they are rough" + (" (**not quiet**; stage-2 quiet re-timing pending)"
                                                         if max(load_before, os.getloadavg()[0]) >= 0.5 else "")
             + "; results/peers_timing.md has the quiet, repeated ones. "
             f"The sweeps of {', '.join(sorted(STEP_IS_H))} run their settings files without `max-substep`, "
             "so the engine's own step is h and E(h) measures it (steps per h: 1); the single runs at h = 0.01 "
             "below the sweeps (mujoco-soft, drake-fem-fingers, ...) keep their settings files whole. "
             "`bodies`: what the engine simulates (MuJoCo 2.2.2 has no deformables: its rows are rigid).", "",
             "| scene | engine | bodies | h [s] | status | reached [s] | wall [s] | real-time factor | steps per h | "
             "frames clear | frames intersecting | deepest [m] | lift [m] | hold force / m g | slip [mm] | "
             "E(h) [m] | order |",
             "|" + "---|" * 17]
    for r in table:
        if r.get("note"):
            lines.append(f"| {r['scene']} | {r['engine']} | {r['bodies']} | | {r['note']} |" + " |" * 12)
            continue
        lines.append("| " + " | ".join(str(r[k]) for k in keys[:-1]) + " |")
    used = []
    for (name, engine), path in sorted(refs.items()):
        if path:
            with h5py.File(path, "r") as f:
                used.append(f"{name} {engine}: h = {float(f.attrs['dt']):g} s"
                            + (" (committed, reference/)" if os.path.realpath(path).startswith(ROOT) else ""))
    if used:
        lines += ["", "E(h) against each engine's own reference: " + "; ".join(used) + "."]
    for picture in pictures:
        lines += ["", f"![{picture[:-4]}](peers/{picture})"]
    lines += ["", "![forces](peers/forces_bubble_grasp_teddy.png)", "",
              "![forces](peers/forces_finray_plate_rack.png)", "", "![error vs wall](peers/error_vs_wall.png)", "",
              "![task outcome vs wall](peers/outcome_vs_wall.png)", ""]
    with open(os.path.join(args.out, "peers.md"), "w") as f:
        f.write("\n".join(lines))
    print(os.path.join(args.out, "peers.md"))


if __name__ == "__main__":
    main()
