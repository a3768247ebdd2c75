#!/usr/bin/python3
"""eipc's linear corotated FEM against MuJoCo 4's flex elasticity (Saint Venant-Kirchhoff) on the
same tet meshes, with the same prescribed displacements (docs/peers.md, "MuJoCo 4 flex").

    /usr/bin/python3 solver/peers/mujoco_flex/material_check.py [--build build] [--work DIR]
        [--bubble-youngs E] [--mujoco-option K=V]...

Two scenes, written to DIR and run by `eipc run` and `eipc-mujoco-flex` (its teddy settings file):

- cube: scenarios/peers/cube.vtk (5 cm, E 1e5 Pa, nu 0.4), no gravity, frictionless ground, its
  top face pushed down in steps and held; the apparent modulus F / (A strain) per hold, the strain
  from the top and bottom faces' mean heights. Small strains check the mapping of E and nu; large
  ones show how each model stiffens or softens in compression.
- bubble: one bubble of the teddy scene (bubble.vtk, E 1e4 Pa, nu 0.45, rho 10), dome down, its
  flat face driven 19 mm down in 1.5 s (12 mm past touching the ground), then held: the ground's
  force over time. --bubble-youngs E runs MuJoCo's bubble with another modulus (eipc's stays the
  scene's), to find the modulus at which MuJoCo's bubble pushes as hard as eipc's.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
SETTINGS = os.path.join(ROOT, "scenarios", "peers", "mujoco-flex_bubble_grasp_teddy.toml")


def cube_scene():
    sc = json.load(open(os.path.join(ROOT, "scenarios", "peers", "cube_squeeze.json")))
    body = sc["bodies"][0]
    body["mesh"] = os.path.join(ROOT, "scenarios", "peers", "cube.vtk")
    keys, t = [{"t": 0.0, "translation": [0, 0, 0]}], 0.0
    for d in (0.0015, 0.0035, 0.0055, 0.0105, 0.0155, 0.0205):  # the first 0.5 mm closes the start gap
        keys += [{"t": t + 0.5, "translation": [0, 0, -d]}, {"t": t + 1.0, "translation": [0, 0, -d]}]
        t += 1.0
    body["prescribed"] = [{"vertices": {"box": [[-1, -1, 0.0504], [1, 1, 1]]}, "motion": keys}]
    sc.update(name="cube_press", duration=t, gravity=[0, 0, 0], bodies=[body])
    sc["contact"]["friction"] = 0.0
    return sc


def bubble_scene():
    sc = json.load(open(os.path.join(ROOT, "scenarios", "bubble_grasp", "teddy.json")))
    body = next(b for b in sc["bodies"] if b["name"] == "bubble_left")
    body["mesh"] = os.path.join(ROOT, "scenarios", "assets", "drake_models", "wsg_50_description", "bubble.vtk")
    # bubble.vtk's flat face is its plane z = 0, its 37 mm dome below: 7 mm above the ground.
    body["transform"] = {"translation": [0, 0, 0.044]}
    body["prescribed"] = [{"vertices": {"box": [[-1, -1, 0.0439], [1, 1, 1]]},
                           "motion": [{"t": 0.0, "translation": [0, 0, 0]},
                                      {"t": 1.5, "translation": [0, 0, -0.019]}]}]
    sc.update(name="bubble_press", duration=2.0, bodies=[body])
    return sc


def run(cmd):
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def ground_force(path):
    with h5py.File(path, "r") as f:
        t = f["frames/time"][:]
        force = f["contact/normal_force"][:, 0, 2] + f["contact/friction_force"][:, 0, 2]
        x = f[f"bodies/{f.attrs['body_names'][0]}/positions"][:]
        rest = f[f"bodies/{f.attrs['body_names'][0]}/rest_vertices"][:]
        return t, force, x, rest


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--work", help="directory for the scenes and trajectories (default: a new temporary one)")
    ap.add_argument("--bubble-youngs", type=float, help="MuJoCo's bubble modulus (Pa; default the scene's)")
    args = ap.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="eipc-material-")
    os.makedirs(work, exist_ok=True)
    eipc, flex = os.path.join(args.build, "bin", "eipc"), os.path.join(args.build, "bin", "eipc-mujoco-flex")
    for name, scene in (("cube", cube_scene()), ("bubble", bubble_scene())):
        path = os.path.join(work, name + ".json")
        json.dump(scene, open(path, "w"), indent=1)
        run([eipc, "run", path, "--out", os.path.join(work, name + "_eipc.h5")])
        extra = ["--set", f"bodies.0.material.youngs={args.bubble_youngs}"] if name == "bubble" and args.bubble_youngs \
            else []
        run([flex, path, "--config", SETTINGS, "--out", os.path.join(work, name + "_mujoco-flex.h5")] + extra)

    print("cube, frictionless uniaxial compression (E 1e5 Pa, nu 0.4): strain and apparent modulus F / (A strain)")
    for engine in ("eipc", "mujoco-flex"):
        t, force, x, rest = ground_force(os.path.join(work, f"cube_{engine}.h5"))
        top, bottom = rest[:, 2] > 0.0504, rest[:, 2] < 0.0006
        height = rest[top, 2].mean() - rest[bottom, 2].mean()
        area = np.ptp(rest[:, 0]) * np.ptp(rest[:, 1])
        cells = []
        for hold_end in np.arange(1.0, t[-1] + 1e-9, 1.0):
            i = int(np.argmin(np.abs(t - hold_end)))
            strain = 1 - (x[i][top, 2].mean() - x[i][bottom, 2].mean()) / height
            cells.append(f"{strain * 100:5.2f}%: {force[i] / (area * strain):.3g} Pa")
        print(f"  {engine:11s} " + "; ".join(cells))
    print("bubble pressed 12 mm past touching the ground: ground force (N) / lowest vertex (mm)"
          + (f"; MuJoCo's bubble E {args.bubble_youngs:g} Pa" if args.bubble_youngs else ""))
    for engine in ("eipc", "mujoco-flex"):
        t, force, x, rest = ground_force(os.path.join(work, f"bubble_{engine}.h5"))
        cells = [f"t {t[i]:.1f}: {force[i]:.2f} / {x[i][:, 2].min() * 1e3:.1f}" for i in range(60, len(t), 20)]
        print(f"  {engine:11s} " + "; ".join(cells))
    print(f"(trajectories in {work})")


if __name__ == "__main__":
    main()
