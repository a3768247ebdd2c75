#!/usr/bin/env bash
# CTest peers_mujoco_flex_teddy: MuJoCo 4's flex teddy grasp over a short horizon (1.8 s at the
# settings file's 5 ms steps: the close and the first 0.3 s of the lift). Checks that the run
# completes; that the trajectory has the engine attributes and eipc's vertices at t = 0; that the
# ground carries the resting bear's weight (the contact forces' sign and axes); that the bear has
# left the ground and rises with the fingers, the bubbles carrying its weight; and that `eipc
# certify` reads the trajectory and measures the depth of every intersecting pair. Also that a
# scene feature the driver cannot map is refused with exit 2, naming it.
# Skipped (exit 77, EIPC_TEST_SKIPPED) when no interpreter with mujoco >= 3 is found.
# Usage: mujoco_flex_test.sh EIPC EIPC_MUJOCO_FLEX SCENE SETTINGS PYTHON_WITH_H5PY
set -euo pipefail
eipc=$1 flex=$2 scene=$3 settings=$4 checker=$5
skip() { echo "EIPC_TEST_SKIPPED: $*"; exit 77; }
"$flex" --which-python >/dev/null 2>&1 || skip "$("$flex" --which-python 2>&1 || true)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$work/teddy_flex.h5

# The low embedding is no tet mesh MuJoCo's flex can take: exit 2, naming the body and the feature.
status=0
"$flex" "$scene" --embedding low --duration 0.01 --out "$work/low.h5" 2> "$work/low.err" >/dev/null || status=$?
[[ $status -eq 2 ]] || { echo "--embedding low: exit $status, expected 2"; cat "$work/low.err"; exit 1; }
grep -q "body 'teddy': embedding 'low'.*cannot be mapped to mujoco-flex" "$work/low.err" ||
  { echo "--embedding low: unexpected message"; cat "$work/low.err"; exit 1; }

(cd "$work" && "$flex" "$scene" --config "$settings" --duration 1.8 --out "$out" --json > "$work/summary.json")
[[ ! -e "$work/MUJOCO_LOG.TXT" ]] || { echo "MuJoCo wrote MUJOCO_LOG.TXT into the working directory"; exit 1; }
status=0
"$eipc" certify "$out" --json > "$work/certify.json" || status=$?
[[ $status -le 1 ]] || { echo "eipc certify failed with exit $status"; exit 1; }   # 1: intersections found

"$checker" - "$work" <<'PY'
import json, math, sys
import h5py
import numpy as np

work = sys.argv[1]
summary = json.load(open(f"{work}/summary.json"))
assert summary["status"] == "complete" and summary["engine"] == "mujoco-flex", summary
assert summary["steps"] == 180, summary
assert summary["newton_iterations_mean"] == 2, summary  # two 5 ms MuJoCo steps per 10 ms scene step

with h5py.File(f"{work}/teddy_flex.h5", "r") as f:
    assert f.attrs["engine"] == "mujoco-flex"
    assert f.attrs["engine_version"].startswith("MuJoCo 4"), f.attrs["engine_version"]
    engine = json.loads(f.attrs["engine_json"])
    assert engine["parameters"]["integrator"] == "discrete" and engine["parameters"]["timestep"] == 0.005
    assert [m["body"] for m in engine["mapping"]] == ["teddy", "bubble_left", "bubble_right"]
    times = f["frames/time"][:]
    for name in ("teddy", "bubble_left", "bubble_right"):
        body = f[f"bodies/{name}"]
        assert np.array_equal(body["positions"][0], body["rest_vertices"][:]), f"{name}: frame 0 is not eipc's rest"
    teddy = f["bodies/teddy/positions"]
    bubble = f["bodies/bubble_left/positions"]
    pairs = [tuple(p) for p in f["contact/pairs"][:]]
    force = f["contact/normal_force"][:] + f["contact/friction_force"][:]
    rest_frame = int(np.argmin(np.abs(times - 0.4)))  # resting on the ground, the bubbles not yet touching
    ground = sum(force[rest_frame, k, 2] for k, p in enumerate(pairs) if p == (0, -1))
    rise = (teddy[-1].mean(0) - teddy[0].mean(0))[2]
    finger_rise = (bubble[-1].mean(0) - bubble[0].mean(0))[2]
    lowest = teddy[-1][:, 2].min()
    fz = sum(force[-1, k, 2] for k, p in enumerate(pairs) if p[0] == 0 and p[1] in (1, 2))
assert abs(times[-1] - 1.8) < 1e-9
weight = 7.605  # m g of the scene's bear (scenarios/bubble_grasp/README.md)
print(f"ground carries {ground:.3f} N of the resting bear's {weight} N; bear rose {rise * 1000:.1f} mm (fingers "
      f"{finger_rise * 1000:.1f} mm), lowest vertex {lowest * 1000:.1f} mm above the ground, bubbles' vertical force "
      f"{fz:.3f} N")
assert abs(ground - weight) < 0.01 * weight, "the ground's force on the resting bear is not its weight"
assert lowest > 0.01, "the bear has not left the ground"
assert rise > 0.5 * finger_rise > 0.01, "the bear does not rise with the fingers"
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
