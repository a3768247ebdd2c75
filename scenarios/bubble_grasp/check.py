#!/usr/bin/python3
"""Checks a bubble-grasp trajectory against issue 4's acceptance criteria.

    check.py RUN.h5 [--json]

Phases come from the scene stored in the file (bubble_left's prescribed motion):
the lift starts at the second-to-last keyframe and rises by the last keyframe's
z translation (LIFT); the hold runs from the last keyframe to the end. Forces
are averaged over the second half of the hold: in the first half the bear is
still being stopped (its momentum m v at the end of the lift is a 1-2% share
of m g times the hold's duration), in the second it is at rest.
Criteria:
  lift     bear centroid rise from the lift start to the end within 10% of LIFT
  no slip  bear centroid moves with the bubbles during the hold (< 2 mm drift)
  hold     mean over the hold's second half of the summed vertical contact force on the bear
           from both bubbles equals m g within 3%, each bubble 50% +- 15%
Exit 0 if all hold, 1 otherwise. Mass comes from the rest tets and the density
in the scene JSON stored in the file.
"""
import json
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "analysis"))
from eipc_report.trajectory import read_pair_series  # noqa: E402  (forces on A from B, per frame)



def phases(scene):
    """(lift start time, lift height, hold start time) from the left bubble's keyframes."""
    keys = next(b for b in scene["bodies"] if b["name"] == "bubble_left")["prescribed"][0]["motion"]
    return keys[-2]["t"], keys[-1]["translation"][2] - keys[-2]["translation"][2], keys[-1]["t"]


def tet_volume(x, tets):
    a, b, c, d = (x[tets[:, i]] for i in range(4))
    return np.abs(np.einsum("ij,ij->i", np.cross(b - a, c - a), d - a)).sum() / 6


def vertical_force(path, bubble, frames):
    """Mean vertical contact force (barrier + friction) on the bear from a bubble over `frames`."""
    pair = read_pair_series(path, "teddy", bubble)
    return (pair.normal + pair.friction)[frames, 2].mean()


def check(path):
    with h5py.File(path, "r") as f:
        scene = json.loads(f.attrs["scene_json"])
        gravity = np.linalg.norm(scene.get("gravity", [0, 0, -9.81]))
        density = next(b for b in scene["bodies"] if b["name"] == "teddy")["material"]["density"]
        teddy = f["bodies/teddy"]
        mass = density * tet_volume(teddy["rest_vertices"][:], teddy["tets"][:])
        lift_start, lift_height, hold_start = phases(scene)
        t = f["frames/time"][:]
        centroid = teddy["positions"][:].mean(axis=1)
        hold = np.nonzero(t >= hold_start - 1e-9)[0]
        settled = hold[t[hold] >= (hold_start + t[-1]) / 2 - 1e-9]
        start = int(np.argmin(np.abs(t - lift_start)))
        fz_left, fz_right = (vertical_force(path, b, settled) for b in ("bubble_left", "bubble_right"))
        lifted = centroid[-1, 2] - centroid[start, 2]
        drift = np.linalg.norm(centroid[hold[-1]] - centroid[hold[0]])
        weight = mass * gravity
        r = {
            "file": path, "embedding": f["bodies/teddy"].attrs["embedding"], "dt": float(f.attrs["dt"]),
            "mass_kg": mass, "weight_N": weight, "lift_m": lifted, "lift_target_m": lift_height, "hold_drift_m": drift,
            "hold_fz_left_N": fz_left, "hold_fz_right_N": fz_right,
            "hold_fz_ratio": (fz_left + fz_right) / weight,
            "left_share": fz_left / (fz_left + fz_right) if fz_left + fz_right else float("nan"),
        }
    r["checks"] = {
        "lift_within_10pct": abs(lifted - lift_height) <= 0.1 * lift_height,
        "no_slip_in_hold": drift < 2e-3,
        "hold_force_within_3pct": abs(r["hold_fz_ratio"] - 1) <= 0.03,
        "about_half_each": abs(r["left_share"] - 0.5) <= 0.15,
    }
    r["passed"] = all(r["checks"].values())
    return r


def main():
    paths = [a for a in sys.argv[1:] if a != "--json"]
    if not paths:
        sys.exit(__doc__)
    results = [check(p) for p in paths]
    if "--json" in sys.argv:
        print(json.dumps(results, indent=2, default=str))
    else:
        for r in results:
            print(f"{r['file']}: {r['embedding']} h={r['dt']}: lift {r['lift_m']*1000:.1f} mm, hold drift "
                  f"{r['hold_drift_m']*1000:.2f} mm, hold Fz {r['hold_fz_left_N']:.3f} + {r['hold_fz_right_N']:.3f} N "
                  f"= {r['hold_fz_ratio']:.4f} m g (m g = {r['weight_N']:.3f} N), "
                  f"{'PASS' if r['passed'] else 'FAIL ' + str([k for k, v in r['checks'].items() if not v])}")
    sys.exit(0 if all(r["passed"] for r in results) else 1)


if __name__ == "__main__":
    main()
