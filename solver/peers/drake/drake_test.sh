#!/usr/bin/env bash
# CTest peers_drake_teddy: Drake's teddy grasp over a short horizon (2.25 s at the example's
# 0.025 s step: the close and half of the lift). Checks that the run completes, the bear has
# left the ground and rises with the fingers, the bubbles carry its weight (the lift is at
# constant speed), the trajectory has the engine attributes, and that `eipc certify` reads it
# and measures the penetration depth of every intersecting pair.
# Skipped (exit 77, EIPC_TEST_SKIPPED) when no interpreter with pydrake is found.
# Usage: drake_test.sh EIPC EIPC_DRAKE SCENE PYTHON_WITH_H5PY
set -euo pipefail
eipc=$1 drake=$2 scene=$3 checker=$4
skip() { echo "EIPC_TEST_SKIPPED: $*"; exit 77; }
"$drake" --which-python >/dev/null 2>&1 || skip "$("$drake" --which-python 2>&1 || true)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$work/teddy_drake.h5

"$drake" "$scene" --duration 2.25 --out "$out" --json > "$work/summary.json"
status=0
"$eipc" certify "$out" --json > "$work/certify.json" || status=$?
[[ $status -le 1 ]] || { echo "eipc certify failed with exit $status"; exit 1; }   # 1: intersections found

"$checker" - "$work" <<'PY'
import json, math, sys
import h5py
import numpy as np

work = sys.argv[1]
summary = json.load(open(f"{work}/summary.json"))
assert summary["status"] == "complete" and summary["engine"] == "drake", summary
assert summary["steps"] == 90, summary

with h5py.File(f"{work}/teddy_drake.h5", "r") as f:
    assert f.attrs["engine"] == "drake"
    assert f.attrs["engine_version"].startswith("Drake "), f.attrs["engine_version"]
    engine = json.loads(f.attrs["engine_json"])
    assert engine["parameters"]["time_step"] == 0.025 and engine["parameters"]["discrete_contact_approximation"] == "lagged"
    assert [m["body"] for m in engine["mapping"]] == ["teddy", "bubble_left", "bubble_right"]
    times = f["frames/time"][:]
    teddy = f["bodies/teddy/positions"]
    bubble = f["bodies/bubble_left/positions"]
    rise = (teddy[-1].mean(0) - teddy[0].mean(0))[2]
    finger_rise = (bubble[-1].mean(0) - bubble[0].mean(0))[2]
    lowest = teddy[-1][:, 2].min()
    pairs = [tuple(p) for p in f["contact/pairs"][:]]
    fz = sum(f["contact/normal_force"][-1, k, 2] + f["contact/friction_force"][-1, k, 2]
             for k, p in enumerate(pairs) if p[0] == 0 and p[1] in (1, 2))
assert abs(times[-1] - 2.25) < 1e-9
print(f"bear rose {rise * 1000:.1f} mm (fingers {finger_rise * 1000:.1f} mm), lowest vertex {lowest * 1000:.1f} mm "
      f"above the ground, bubbles' vertical force {fz:.3f} N")
assert lowest > 0.02, "the bear has not left the ground"
assert rise > 0.5 * finger_rise > 0.03, "the bear does not rise with the fingers"
weight = 7.605  # m g of the scene's bear (scenarios/bubble_grasp/README.md)
assert abs(fz - weight) < 0.1 * weight, f"the bubbles carry {fz:.3f} N of the bear's {weight} N"

cert = json.load(open(f"{work}/certify.json"))["summary"]
print(f"certify: {cert['intersecting_frames']} of {cert['frames']} frames intersecting, max depth "
      f"{cert['max_depth'] * 1000 if cert['max_depth'] is not None else None} mm; pairs "
      + ", ".join(f"{p['body_a']}-{p['body_b']} {p['max_depth'] * 1000:.2f} mm" for p in cert["pairs"]))
assert cert["frames"] == len(times)
if cert["intersecting_frames"]:
    assert cert["max_depth"] is not None and math.isfinite(cert["max_depth"]) and 0 < cert["max_depth"] < 0.02
    assert all(p["max_depth"] is not None and p["max_depth"] > 0 for p in cert["pairs"])
print("ok")
PY
