#!/usr/bin/env bash
# CTest peers_drake_finray: FinRay as the paper ran it in Drake (rigid fingers with compliant
# hydroelastic contact, rigid plate, the rack welded as convex wire pieces), over the grasp and
# the first lift (1.1 s at h = 0.01). Checks that the run completes; the driven fingers follow
# the scene's motion (every prescribed vertex within 0.5 mm of where eipc puts it); the plate
# rises with them and is carried by the fingers alone; the trajectory has the engine
# attributes and mapping; and `eipc certify` reads it and measures every intersecting pair's
# depth. Skipped (exit 77, EIPC_TEST_SKIPPED) when no interpreter with pydrake is found.
# Usage: drake_finray_test.sh EIPC EIPC_DRAKE SCENE SETTINGS.toml PYTHON_WITH_H5PY MODULE_DIR
set -euo pipefail
eipc=$1 drake=$2 scene=$3 settings=$4 checker=$5 module_dir=$6
skip() { echo "EIPC_TEST_SKIPPED: $*"; exit 77; }
"$drake" --which-python >/dev/null 2>&1 || skip "$("$drake" --which-python 2>&1 || true)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$work/finray_drake.h5

"$drake" "$scene" --config "$settings" --dt 0.01 --duration 1.1 --out "$out" --json > "$work/summary.json"
status=0
"$eipc" certify "$out" --json > "$work/certify.json" || status=$?
[[ $status -le 1 ]] || { echo "eipc certify failed with exit $status"; exit 1; }   # 1: intersections found

PYTHONPATH="$module_dir${PYTHONPATH:+:$PYTHONPATH}" "$checker" - "$work" "$scene" <<'PY'
import json, math, sys
import h5py
import numpy as np
import eipc

work, scene = sys.argv[1], sys.argv[2]
summary = json.load(open(f"{work}/summary.json"))
assert summary["status"] == "complete" and summary["engine"] == "drake" and summary["steps"] == 110, summary
run = eipc.PeerRun(scene)


with h5py.File(f"{work}/finray_drake.h5", "r") as f:
    assert f.attrs["engine"] == "drake"
    engine = json.loads(f.attrs["engine_json"])
    assert engine["parameters"]["finger_model"] == "rigid" and engine["parameters"]["drive"] == "per finger"
    models = {m["body"]: m["peer_model"] for m in engine["mapping"]}
    assert "compliant hydroelastic" in models["finger_left"] and "rigid hydroelastic" in models["plate"], models
    assert "convex pieces" in models["rack"], models["rack"]
    times = f["frames/time"][:]
    lag = 0.0
    for body in run.bodies:
        if body["prescribed_nodes"]:
            X = f[f"bodies/{body['name']}/positions"]
            for i in range(0, len(times), 10):
                lag = max(lag, np.abs(X[i] - np.array(run.posed(body["name"], times[i]))).max())
    plate = f["bodies/plate/positions"]
    rise = (plate[-1].mean(0) - plate[0].mean(0))[2]
    pairs = [tuple(p) for p in f["contact/pairs"][:]]
    names = json.loads(f.attrs["scene_json"])["bodies"]
    index = {b["name"]: k for k, b in enumerate(names)}
    total = f["contact/normal_force"][-1] + f["contact/friction_force"][-1]
    by_fingers = sum(total[k, 2] for k, p in enumerate(pairs)
                     if index["plate"] in p and {index["finger_left"], index["finger_right"]} & set(p))
    by_others = sum(abs(total[k]).max() for k, p in enumerate(pairs)
                    if index["plate"] in p and not {index["finger_left"], index["finger_right"]} & set(p))
print(f"fingers within {lag * 1000:.3f} mm of the scene's motion; plate rose {rise * 1000:.1f} mm; "
      f"fingers' vertical force on the plate {by_fingers:.3f} N, others {by_others:.3f} N")
assert abs(times[-1] - 1.1) < 1e-9
assert lag < 5e-4, "the driven fingers do not follow the scene's motion"
assert rise > 0.08, "the plate has not been lifted"
weight = 0.375 * 9.81  # Drake's plate_8in mass (the scene's density on its tet mesh)
assert by_others < 1e-9 and by_fingers > 0.5 * weight, "the fingers do not carry the plate"

cert = json.load(open(f"{work}/certify.json"))["summary"]
print(f"certify: {cert['intersecting_frames']} of {cert['frames']} frames intersecting, max depth "
      f"{cert['max_depth'] * 1000 if cert['max_depth'] is not None else None} mm")
assert cert["frames"] == len(times)
if cert["intersecting_frames"]:
    assert cert["max_depth"] is not None and math.isfinite(cert["max_depth"]) and 0 < cert["max_depth"] < 0.02
    assert all(p["max_depth"] is not None and p["max_depth"] > 0 for p in cert["pairs"])
print("ok")
PY
