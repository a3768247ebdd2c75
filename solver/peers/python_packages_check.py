#!/usr/bin/python3
"""The project's virtual environment (.venv, made by ci/setup-deps) has exactly the pinned
PyPI packages of ci/requirements-peers.txt, and each peer package works: Drake's deformable
model, MuJoCo 4 compiling a flex body, ipc-toolkit's distance and CCD, meshio, gmsh.

    python_packages_check.py VENV REQUIREMENTS        (exit 0 ok, 1 a check failed)
"""
import os
import subprocess
import sys

# Run inside the venv: each line prints what it checked, or raises.
USE = r"""
import importlib.metadata as md, json, sys
pins = json.loads(sys.argv[1])
wrong = {n: (v, md.version(n)) for n, v in pins.items() if md.version(n) != v}
assert not wrong, f"installed versions differ from the pins: {wrong}"
print(f"{len(pins)} pinned packages at their versions")

from pydrake.multibody.plant import AddMultibodyPlantSceneGraph, DeformableModel
from pydrake.systems.framework import DiagramBuilder
builder = DiagramBuilder()
plant, _ = AddMultibodyPlantSceneGraph(builder, 0.01)
assert isinstance(plant.mutable_deformable_model(), DeformableModel)
print("drake: MultibodyPlant with a DeformableModel")

import mujoco
xml = '''<mujoco><worldbody><flexcomp name="f" type="grid" count="3 3 3" spacing="0.1 0.1 0.1" dim="3">
<edge equality="true"/></flexcomp></worldbody></mujoco>'''
m = mujoco.MjModel.from_xml_string(xml)
d = mujoco.MjData(m)
mujoco.mj_step(m, d)
assert m.nflex == 1 and m.flex_dim[0] == 3, (m.nflex, m.flex_dim)
print(f"mujoco {mujoco.__version__}: a 3-D flex body steps")

import numpy as np, ipctk
p, t0, t1, t2 = (np.array(v, float) for v in ([0, 0, 1], [0, 0, 0], [1, 0, 0], [0, 1, 0]))
d2 = ipctk.point_triangle_distance(p, t0, t1, t2)
assert abs(d2 - 1.0) < 1e-12, d2  # squared distance
print("ipctk: point-triangle distance")

import meshio, gmsh
gmsh.initialize(); gmsh.finalize()
print("meshio, gmsh import and start")
"""


def pins(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if line:
            name, version = line.split("==")
            out[name] = version
    return out


def main(venv, requirements):
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        print(f"error: {python} is missing: run ci/setup-deps (it makes the project's virtual environment)",
              file=sys.stderr)
        return 1
    import json
    r = subprocess.run([python, "-c", USE, json.dumps(pins(requirements))], text=True, capture_output=True)
    print(r.stdout, end="")
    if r.returncode != 0:
        print(f"error: {python}: {r.stderr.strip().splitlines()[-1] if r.stderr.strip() else 'failed'}",
              file=sys.stderr)
        print(r.stderr, file=sys.stderr)
    return r.returncode


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
