#!/usr/bin/env bash
# CTest peers_<engine>_shell: an eipc shell (material stvk_shell) in a peer, MuJoCo 4's 2-D flex
# (eipc-mujoco-flex) or Bullet's cloth (eipc-bullet). A 0.3 m sheet (scenarios/cloth/cloth_coarse.obj,
# 305 vertices, 1 mm thick) dropped 2 mm onto the ground and left to settle for 0.4 s. Checks the
# mapping (MuJoCo: dim 2 on the sheet's own triangles, elastic2d both, the scene's thickness, half of
# it the contact radius, lumped masses summing to rho t A; Bullet: a spring of E t on every triangle
# edge, bending springs besides), that frame 0 is eipc's rest, that the ground carries the sheet's
# weight at the end (within 2%, the mean over the last 0.1 s), that the sheet lies flat on it (every
# vertex within 1 mm of its settled height) and that `eipc certify` finds every frame clear.
# Skipped (exit 77, EIPC_TEST_SKIPPED) when eipc-mujoco-flex finds no interpreter with mujoco >= 3.
# Usage: shell_sheet_test.sh EIPC PEER_BINARY SHEET_OBJ SETTINGS PYTHON_WITH_H5PY
set -euo pipefail
eipc=$1 peer=$2 sheet=$3 settings=$4 checker=$5
skip() { echo "EIPC_TEST_SKIPPED: $*"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
extra=()
if [[ $(basename "$peer") == eipc-mujoco-flex ]]; then
  "$peer" --which-python >/dev/null 2>&1 || skip "$("$peer" --which-python 2>&1 || true)"
  extra=(--mjcf-out "$work/model.xml")
fi

cat > "$work/sheet.json" <<JSON
{"format": "eipc-scene", "version": 1, "name": "sheet_on_ground", "duration": 0.4, "dt": 0.01,
 "gravity": [0, 0, -9.81], "ground": {"height": 0.0}, "output": {"every": 0.01},
 "contact": {"kappa": 1e4, "dhat": 5e-4, "epsv": 1e-3, "friction": 0.5},
 "bodies": [{"name": "sheet", "mesh": "$sheet",
             "material": {"model": "stvk_shell", "thickness": 0.001, "youngs": 1e5, "poisson": 0.3, "density": 300},
             "transform": {"translation": [0, 0, 0.0025]}}]}
JSON
"$peer" "$work/sheet.json" --config "$settings" "${extra[@]}" --out "$work/sheet.h5" --json > "$work/summary.json"
status=0
"$eipc" certify "$work/sheet.h5" --json > "$work/certify.json" || status=$?
[[ $status -eq 0 ]] || { echo "eipc certify: exit $status (expected 0: every frame clear)"; exit 1; }

"$checker" - "$work" <<'PY'
import json, sys
import xml.etree.ElementTree as ET
import h5py
import numpy as np

work = sys.argv[1]
summary = json.load(open(f"{work}/summary.json"))
assert summary["status"] == "complete", summary
engine = summary["engine"]

with h5py.File(f"{work}/sheet.h5", "r") as f:
    rest = f["bodies/sheet/rest_vertices"][:]
    triangles = f["bodies/sheet/surface_triangles"][:]
    x = f["bodies/sheet/positions"]
    assert np.array_equal(x[0], rest), "frame 0 is not eipc's rest"
    last = x[-1]
    times = f["frames/time"][:]
    pairs = [tuple(p) for p in f["contact/pairs"][:]]
    force = f["contact/normal_force"][:] + f["contact/friction_force"][:]
    mapping = json.loads(f.attrs["engine_json"])["mapping"][0]
a, b, c = (rest[triangles[:, i]] for i in range(3))
mass = 300 * 0.001 * np.linalg.norm(np.cross(b - a, c - a), axis=1).sum() / 2
if engine == "mujoco-flex":
    flex = ET.parse(f"{work}/model.xml").getroot().find("deformable/flex")
    elasticity = flex.find("elasticity")
    assert flex.get("dim") == "2" and float(flex.get("radius")) == 0.0005, flex.attrib
    assert float(elasticity.get("thickness")) == 0.001 and elasticity.get("elastic2d") == "both", elasticity.attrib
    assert len(flex.get("element").split()) == triangles.size, "the flex's elements are not the sheet's triangles"
    assert mapping["peer_model"].startswith("2-D flex"), mapping
    assert abs(mapping["mass"] - mass) < 1e-12 * mass, (mapping["mass"], mass)
else:
    edges = {tuple(sorted(e)) for t in triangles for e in ((t[0], t[1]), (t[1], t[2]), (t[2], t[0]))}
    p = mapping["parameters"]
    assert engine == "bullet" and mapping["peer_model"].startswith("btSoftBody cloth"), mapping
    assert p["edge_springs"] == len(edges) and p["bending_springs"] > 0, p
    assert p["stiffness"] == 1e5 * 0.001 and p["nodes"] == len(rest), p
late = times >= times[-1] - 0.1 - 1e-9
ground = np.mean([sum(force[i, k, 2] for k, p in enumerate(pairs) if p == (0, -1)) for i in np.flatnonzero(late)])
z = last[:, 2]
print(f"sheet {mass * 1e3:.3f} g: ground carries {ground:.5f} N of m g = {mass * 9.81:.5f} N; settled z "
      f"{z.min() * 1e3:.3f}-{z.max() * 1e3:.3f} mm")
assert abs(ground - mass * 9.81) < 0.02 * mass * 9.81, "the ground does not carry the sheet's weight"
assert z.min() > 0 and z.max() - z.min() < 1e-3, "the sheet does not lie flat on the ground"
print("ok")
PY
