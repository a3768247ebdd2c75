#!/usr/bin/env bash
# CTest peers_mujoco_flex_finray: FinRay in MuJoCo 4 with both fingers as flex bodies on their
# full-resolution tets (the plate a free rigid body, the rack static, both from eipc-mujoco's
# convex pieces). A full run takes minutes (docs/peers.md, "MuJoCo 4 flex"), so this checks what
# a short one cannot: that the fingers' joint chain (three slides, then a hinge about the pivot
# for each turning Euler angle) puts every prescribed vertex where eipc's motion does at the
# turning part of the motion (the joints set to the motion's values, 1e-12 m); and a 0.1 s run
# with the settings file: it completes, frame 0 is eipc's rest for every body (the plate's to rounding), the ground carries
# the resting plate's weight (within 10%, mean from 0.05 s), the static rack stays where it is, and `eipc certify` reads it.
# Skipped (exit 77, EIPC_TEST_SKIPPED) when no interpreter with mujoco >= 3 is found.
# Usage: mujoco_flex_finray_test.sh EIPC EIPC_MUJOCO_FLEX SCENE SETTINGS PYTHON_WITH_H5PY MODULE_DIR
set -euo pipefail
eipc=$1 flex=$2 scene=$3 settings=$4 checker=$5 module_dir=$6
skip() { echo "EIPC_TEST_SKIPPED: $*"; exit 77; }
python=$("$flex" --which-python 2>/dev/null) || skip "$("$flex" --which-python 2>&1 || true)"
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

PYTHONPATH="$module_dir:$here${PYTHONPATH:+:$PYTHONPATH}" "$python" - "$scene" "$settings" <<'PY' 2> "$work/chain.err"
import sys
import mujoco
import numpy as np
import eipc
import eipc_mujoco_flex as driver

scene, settings = sys.argv[1], sys.argv[2]
opts = driver.parse_args([scene, "--config", settings, "--duration", "0.01"])
run = eipc.PeerRun(scene, embedding=opts.embedding, duration=0.01)
engine = driver.FlexEngine(run, opts)
m, d = engine.model, engine.scratch
assert {b["name"]: engine.turns[b["name"]] for b in engine.fingers} == {"finger_left": [1], "finger_right": [1]}
worst = 0.0
for t in np.arange(1.0, 3.6, 0.1):  # the carry turns the fingers by 90 degrees about y
    for b in engine.fingers:
        motion = run.motion_at(b["name"], t)
        values = list(motion["translation"]) + list(np.radians(motion["rotation_deg"])[engine.turns[b["name"]]])
        for axis, value in zip(["x", "y", "z"] + ["r" + "xyz"[i] for i in engine.turns[b["name"]]], values):
            joint = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_JOINT, f"{b['name']}_finger_{axis}")
            d.qpos[m.jnt_qposadr[joint]] = value
    mujoco.mj_kinematics(m, d)
    mujoco.mj_flex(m, d)
    x = engine._positions(d)
    for k, b in enumerate(engine.bodies):
        if not b["prescribed_nodes"]:
            continue
        pinned = b["prescribed_nodes"]
        want = np.array(run.posed(b["name"], t))[pinned]
        worst = max(worst, float(np.abs(x[k][pinned] - want).max()))
print(f"joint chain: prescribed vertices within {worst:.3g} m of eipc's motion from 1.0 to 3.5 s")
assert worst < 1e-12, worst
PY

out=$work/finray_flex.h5
(cd "$work" && "$flex" "$scene" --config "$settings" --duration 0.1 --out "$out" --json > "$work/summary.json")
status=0
"$eipc" certify "$out" --json > "$work/certify.json" || status=$?
[[ $status -le 1 ]] || { echo "eipc certify failed with exit $status"; exit 1; }   # 1: intersections found

"$checker" - "$work" <<'PY'
import json, sys
import h5py
import numpy as np

work = sys.argv[1]
summary = json.load(open(f"{work}/summary.json"))
assert summary["status"] == "complete" and summary["engine"] == "mujoco-flex" and summary["steps"] == 10, summary
with h5py.File(f"{work}/finray_flex.h5", "r") as f:
    engine = json.loads(f.attrs["engine_json"])
    mapping = {e["body"]: e for e in engine["mapping"]}
    assert list(mapping) == ["plate", "finger_left", "finger_right", "rack"], list(mapping)
    assert mapping["plate"]["peer_model"].startswith("free rigid body") and mapping["rack"]["peer_model"].startswith("static")
    assert "hinge y about the pivot" in mapping["finger_left"]["peer_model"], mapping["finger_left"]["peer_model"]
    for name in mapping:  # a rigid body's vertices are its pose applied to them: rounding only
        body = f[f"bodies/{name}"]
        off = np.abs(body["positions"][0] - body["rest_vertices"][:]).max()
        assert off < 1e-12 and (off == 0 or name == "plate"), f"{name}: frame 0 is {off} m off eipc's rest"
    rack = f["bodies/rack/positions"]
    assert np.array_equal(rack[-1], rack[0]), "the static rack moved"
    pairs = [tuple(p) for p in f["contact/pairs"][:]]
    force = f["contact/normal_force"][:] + f["contact/friction_force"][:]
    # The plate falls 0.8 mm onto the ground and rocks on its convex pieces: the mean from 0.05 s.
    ground = np.mean([sum(force[i, k, 2] for k, p in enumerate(pairs) if p == (0, -1)) for i in range(5, 11)])
weight = mapping["plate"]["mass"] * 9.81
print(f"ground carries {ground:.3f} N of the plate's {weight:.3f} N from 0.05 to 0.1 s")
assert abs(ground - weight) < 0.1 * weight, "the ground's force on the resting plate is not its weight"
cert = json.load(open(f"{work}/certify.json"))["summary"]
assert cert["frames"] == 11, cert
print("ok")
PY
