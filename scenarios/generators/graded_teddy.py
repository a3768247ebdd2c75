#!/usr/bin/python3
"""Graded embeddings for the teddy grasp (issue 40, docs/embedding.md "Graded embeddings"):
tets fine where the bubbles press the bear, coarse elsewhere.

    scenarios/generators/graded_teddy.py [--preset NAME ...] [--out-dir DIR] [--gmsh gmsh]

Each preset writes DIR/teddy_graded_NAME.msh (Gmsh 2.2, teddy.vtk's frame, like
teddy_low.msh) from scenarios/generators/graded_teddy.geo: a box around the bear meshed with
tets of size `hc` except in a box around each contact patch, where the size is `hf`, growing
to `hc` over `tk` around it (gmsh's Box field). Sizes are in the world frame (metres, after
teddy.json's scale 0.15). The contact patches are the bear's outermost surface vertices under
each bubble, chosen as scenarios/locking/static_proxy.py's load (surface vertices in the
bubbles' y-z window, within 12 mm of the bear's extreme x); in the full-space grasp at
h = 0.02 the bear's surface vertices within 4 mm of a bubble during the hold lie in the same
boxes. A patch box spans the patch, padded by `pad` in y and z, from the box's outer side to
`depth` inside the patch's innermost vertex. Deterministic (gmsh -nt 1, Mesh.RandomSeed).
Needs gmsh (not on CI); the committed meshes are small. Debian's /usr/bin/python3.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from meshtools import boundary_faces, clean_gmsh_tets  # noqa: E402

TEDDY = os.path.join(ROOT, "scenarios", "assets", "drake", "teddy.vtk")
SCALE, SHIFT_Z = 0.15, 0.0005  # teddy.json: scale 0.15, rotation 90 deg about x, translation z 0.0005
# name: (hf fine size, hc coarse size, tk transition, depth, pad), metres in the world frame
PRESETS = {
    "g0": (0.020, 0.100, 0.020, 0.015, 0.005),
    "g1": (0.030, 0.060, 0.010, 0.010, 0.005),
    "g2": (0.020, 0.060, 0.015, 0.015, 0.005),
    "g3": (0.012, 0.060, 0.020, 0.020, 0.005),
    # finer, for the 53k-vertex teddy (scenarios/resolution/teddy_50k.json), whose fine
    # surface carries nodes this small; Drake's 410-vertex bear has 12 mm between vertices
    "d12": (0.012, 0.060, 0.020, 0.035, 0.010),
    "w8": (0.008, 0.040, 0.015, 0.040, 0.010),
}


def read_vtk(path):
    """Points and tets of a legacy ASCII VTK unstructured grid of tets."""
    tokens = open(path).read().split()
    i = tokens.index("POINTS")
    n = int(tokens[i + 1])
    V = np.array(tokens[i + 3:i + 3 + 3 * n], dtype=float).reshape(n, 3)
    j = tokens.index("CELLS")
    m = int(tokens[j + 1])
    cells = np.array(tokens[j + 3:j + 3 + 5 * m], dtype=int).reshape(m, 5)
    assert (cells[:, 0] == 4).all(), "only tets"
    return V, cells[:, 1:]


def to_world(V):
    s = SCALE * V
    return np.column_stack([s[:, 0], -s[:, 2], s[:, 1] + SHIFT_Z])


def world_box_to_vtk(lo, hi):
    """An axis-aligned world box as one in teddy.vtk's frame (x = wx, y = wz, z = -wy, / 0.15)."""
    return ((lo[0] / SCALE, (lo[2] - SHIFT_Z) / SCALE, -hi[1] / SCALE),
            (hi[0] / SCALE, (hi[2] - SHIFT_Z) / SCALE, -lo[1] / SCALE))


def contact_patches(Vw, T):
    """Per side (-1 left, +1 right): the outermost surface vertices under the bubble
    (static_proxy.squeeze_load's choice)."""
    surf = np.unique(boundary_faces(T))
    window = (np.abs(Vw[surf, 1] + 0.01) < 0.03) & (np.abs(Vw[surf, 2] - 0.07) < 0.04)
    patches = {}
    for side in (-1, 1):
        cand = surf[window & (side * Vw[surf, 0] > 0)]
        extreme = (side * Vw[cand, 0]).max()
        patches[side] = cand[side * Vw[cand, 0] > extreme - 0.012]
    return patches


def geo_numbers(preset):
    hf, hc, tk, depth, pad = PRESETS[preset]
    V, T = read_vtk(TEDDY)
    Vw = to_world(V)
    lo, hi = V.min(axis=0), V.max(axis=0)
    margin = 0.01 * (hi - lo).max()
    numbers = {"bx0": lo[0] - margin, "bx1": hi[0] + margin, "by0": lo[1] - margin, "by1": hi[1] + margin,
               "bz0": lo[2] - margin, "bz1": hi[2] + margin,
               "hc": hc / SCALE, "hf": hf / SCALE, "tk": tk / SCALE}
    for side, prefix in ((-1, "l"), (1, "r")):
        P = Vw[contact_patches(Vw, T)[side]]
        wlo, whi = P.min(axis=0) - pad, P.max(axis=0) + pad
        if side < 0:
            wlo[0], whi[0] = -1.0, P[:, 0].max() + depth
        else:
            wlo[0], whi[0] = P[:, 0].min() - depth, 1.0
        vlo, vhi = world_box_to_vtk(wlo, whi)
        for k, axis in enumerate("xyz"):
            numbers[f"{prefix}{axis}0"], numbers[f"{prefix}{axis}1"] = vlo[k], vhi[k]
    return numbers


def make(preset, out_dir, gmsh):
    out = os.path.join(out_dir, f"teddy_graded_{preset}.msh")
    args = [gmsh, "-3", "-nt", "1", "-v", "2", "-format", "msh22"]
    for k, v in geo_numbers(preset).items():
        args += ["-setnumber", k, repr(float(v))]
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "raw.msh")
        subprocess.run(args + [os.path.join(HERE, "graded_teddy.geo"), "-o", raw], check=True)
        report = clean_gmsh_tets(raw, out)
    print(f"{out}: {report['vertices']} vertices, {report['tets']} tets")
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--preset", action="append", help="default: all of PRESETS")
    p.add_argument("--out-dir", default=os.path.join(ROOT, "scenarios", "assets", "embeddings"))
    p.add_argument("--gmsh", default="gmsh")
    p.add_argument("--params", metavar="NAME=HF,HC,TK,DEPTH,PAD", action="append", default=[],
                   help="an extra preset (metres, world frame), made instead of the defaults")
    args = p.parse_args()
    for text in args.params:
        name, values = text.split("=")
        PRESETS[name] = tuple(float(v) for v in values.split(","))
        args.preset = (args.preset or []) + [name]
    for preset in args.preset or sorted(PRESETS):
        make(preset, args.out_dir, args.gmsh)


if __name__ == "__main__":
    main()
