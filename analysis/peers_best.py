#!/usr/bin/python3
"""Each peer with its per-scene settings: task outcomes and measured penetration.

    /usr/bin/python3 analysis/peers_best.py [--build build] [--work /tmp/eipc-best] [--out results]
                                            [--max-wall 1800]

Runs every (scene, peer, variant) of RUNS with `--config scenarios/peers/<engine>_<scene>.toml`
(a trajectory already in WORK under the run's name is reused, whatever its status), certifies
it, and writes OUT/peers_best.md: status, simulated time reached, lift (of the commanded
lift), hold force / m g, slip, frames intersecting, deepest certified penetration, the
engine's own deepest contact (MuJoCo), and per run a plot of depth over time per body pair
(OUT/peers/depth_<run>.png, analysis/peers_depth.py). No wall times: those come from
analysis/peers_timing.py on a quiet machine.
"""
import argparse
import json
import os
import subprocess
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers import ROOT, SCENES, binary, grasp, settings_file  # noqa: E402
from peers_search import COMMANDED_LIFT, CUBE  # noqa: E402

SCENE_CFG = dict(SCENES, cube_squeeze=CUBE)
# (scene, engine, variant label, extra options)
RUNS = [
    ("cube_squeeze", "mujoco", "", []),
    ("cube_squeeze", "bullet", "", []),
    ("bubble_grasp_teddy", "mujoco", "", []),
    ("bubble_grasp_teddy", "bullet", "soft bubbles", []),
    ("bubble_grasp_teddy", "bullet", "rigid pads", ["--rigid-fingers"]),
    ("finray_plate_rack", "mujoco", "", []),
    ("finray_plate_rack", "bullet", "rigid pads", []),  # its settings file sets --rigid-fingers
]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--work", default="/tmp/eipc-best")
    ap.add_argument("--out", default=os.path.join(ROOT, "results"))
    ap.add_argument("--max-wall", default="1800", help="per run (s): Bullet's explicit teddy needs about 15 minutes")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    rows, trajectories = [], []
    for scene, engine, variant, extra in RUNS:
        cfg = SCENE_CFG[scene]
        name = f"{scene}_{engine}" + (f"_{variant.replace(' ', '_')}" if variant else "")
        path = os.path.join(args.work, name + ".h5")
        toml = os.path.relpath(settings_file(engine, scene), ROOT)
        cmd = [binary(args.build, engine), os.path.join(ROOT, cfg["scene"]), "--config", settings_file(engine, scene),
               "--max-wall", args.max_wall, "--json", "--out", path] + extra
        if not os.path.exists(path):
            print("+", " ".join(cmd), file=sys.stderr, flush=True)
            subprocess.run(cmd, stdout=subprocess.DEVNULL)
        if not os.path.exists(path):
            rows.append(f"| {scene} | {engine} {variant} | `{toml}` {' '.join(extra)} | no trajectory | | | | | | | |")
            continue
        trajectories.append(path)
        with h5py.File(path, "r") as f:
            status = f.attrs["status"]
            status = status.decode() if isinstance(status, bytes) else str(status)
            own = f["frames/min_distance"][:]
        out = subprocess.run([binary(args.build, "eipc"), "certify", path, "--json"], capture_output=True, text=True)
        with open(path[:-3] + ".certify.json", "w") as f:
            f.write(out.stdout)
        cert = json.loads(out.stdout)["summary"]
        g = grasp(path, cfg)
        depth = "0" if cert["max_depth"] is None else f"{cert['max_depth'] * 1e3:.2f}"
        own_depth = f"{max(0.0, -float(np.nanmin(own))) * 1e3:.2f}" if np.isfinite(own).any() else "n/a"
        rows.append(f"| {scene} | {engine} {variant} | `{toml}` {' '.join(extra)} | {status} | {g['t'][-1]:.2f} | "
                    f"{g['lift'] * 1e3:.1f} ({g['lift'] / COMMANDED_LIFT[scene]:.2f}) | {g['hold_over_mg']:.2f} | "
                    f"{g['slip'] * 1e3:.1f} | {cert['intersecting_frames']}/{cert['frames']} | {depth} | {own_depth} |")
    plots = os.path.join(args.out, "peers")
    subprocess.run([sys.executable, os.path.join(ROOT, "analysis", "peers_depth.py"), "--eipc", binary(args.build, "eipc"),
                    "--out", plots] + trajectories, check=True)
    lines = ["# Each peer with its per-scene settings", "",
             "Made by `/usr/bin/python3 analysis/peers_best.py` (docs/peers.md, \"Each peer at its best\"). Lift in mm "
             "(fraction of the commanded lift); hold force over the scene's hold window / m g; slip of the object "
             "relative to the finger over that window; depth: `eipc certify`'s deepest penetration; own: the "
             "engine's own deepest contact at the stored frames (MuJoCo; mesh-mesh values are MPR estimates). "
             f"Runs are limited to {args.max_wall} s of wall time (`--max-wall`); `reached` says how far they got. "
             "No wall times here: analysis/peers_timing.py on a quiet machine.", "",
             "| scene | peer | settings | status | reached [s] | lift [mm] | hold / m g | slip [mm] | "
             "frames intersecting | depth [mm] | own depth [mm] |", "|" + "---|" * 11] + rows + [""]
    lines += [f"![depth](peers/depth_{os.path.basename(p)[:-3]}.png)" for p in trajectories]
    with open(os.path.join(args.out, "peers_best.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(os.path.join(args.out, "peers_best.md"))


if __name__ == "__main__":
    main()
