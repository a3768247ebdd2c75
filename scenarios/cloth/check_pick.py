#!/usr/bin/python3
"""Checks a towel_pick trajectory: the towel is pulled off the table, lifted and held.

    scenarios/cloth/check_pick.py RUN.h5 [--json]

Phases come from the scene stored in the file (bubble_inner's prescribed motion): the
lift starts at the second-to-last keyframe and rises by the last keyframe's z
translation (LIFT); the hold runs from the last keyframe to the end, and forces are
averaged over its second half (in the first the towel is still being stopped).
Criteria:
  off the table   no contact force between towel and table in the hold
  off the ground  the towel's lowest vertex is at least 1 cm above the ground in the hold
  lift            the towel's highest vertex rises within 10% of LIFT from the lift start to the end
  no slip         the towel's highest vertex moves less than 2 mm during the hold
  hold            the summed vertical contact force on the towel from both bubbles over the
                  hold's second half equals m g within 5%
Exit 0 if all hold, 1 otherwise. The mass is the rest surface's area times the shell's
thickness and density from the scene JSON stored in the file.
"""
import json
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "analysis"))
from eipc_report.trajectory import read_pair_series  # noqa: E402  (forces on A from B, per frame)
from peers import body_mass  # noqa: E402  (the shell's rest area x thickness x density)

BUBBLES = ("bubble_inner", "bubble_outer")


def phases(scene):
    """(lift start time, lift height, hold start time) from the inner bubble's keyframes."""
    keys = next(b for b in scene["bodies"] if b["name"] == BUBBLES[0])["prescribed"][0]["motion"]
    return keys[-2]["t"], keys[-1]["translation"][2] - keys[-2]["translation"][2], keys[-1]["t"]


def check(path):
    with h5py.File(path, "r") as f:
        scene = json.loads(f.attrs["scene_json"])
        gravity = np.linalg.norm(scene.get("gravity", [0, 0, -9.81]))
        towel = f["bodies/towel"]
        mass = body_mass(f, "towel")
        lift_start, lift_height, hold_start = phases(scene)
        t = f["frames/time"][:]
        z = towel["positions"][:, :, 2]
        ground = float(f.attrs["ground_height"])
        embedding = towel.attrs["embedding"]
        dt = float(f.attrs["dt"])
    hold = np.nonzero(t >= hold_start - 1e-9)[0]
    settled = hold[t[hold] >= (hold_start + t[-1]) / 2 - 1e-9]
    start = int(np.argmin(np.abs(t - lift_start)))
    top = z.max(axis=1)
    table = read_pair_series(path, "towel", "table")
    fz = [(p.normal + p.friction)[settled, 2].mean() for p in (read_pair_series(path, "towel", b) for b in BUBBLES)]
    weight = mass * gravity
    r = {
        "file": path, "embedding": embedding, "dt": dt, "mass_kg": mass, "weight_N": weight,
        "table_force_in_hold_N": float(np.abs(table.normal[hold] + table.friction[hold]).max()),
        "lowest_in_hold_m": float(z[hold].min() - ground),
        "lift_m": float(top[-1] - top[start]), "lift_target_m": lift_height,
        "hold_drift_m": float(abs(top[hold[-1]] - top[hold[0]])),
        "hold_fz_N": fz, "hold_fz_ratio": sum(fz) / weight,
    }
    r["checks"] = {
        "off_the_table": r["table_force_in_hold_N"] == 0,
        "off_the_ground": r["lowest_in_hold_m"] >= 0.01,
        "lift_within_10pct": abs(r["lift_m"] - lift_height) <= 0.1 * lift_height,
        "no_slip_in_hold": r["hold_drift_m"] < 2e-3,
        "hold_force_within_5pct": abs(r["hold_fz_ratio"] - 1) <= 0.05,
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
            print(f"{r['file']}: {r['embedding']} h={r['dt']}: lift {r['lift_m']*1000:.1f} mm, lowest "
                  f"{r['lowest_in_hold_m']*1000:.1f} mm above ground, hold drift {r['hold_drift_m']*1000:.2f} mm, "
                  f"hold Fz {r['hold_fz_N'][0]:.4f} + {r['hold_fz_N'][1]:.4f} N = {r['hold_fz_ratio']:.4f} m g "
                  f"(m g = {r['weight_N']:.4f} N), "
                  f"{'PASS' if r['passed'] else 'FAIL ' + str([k for k, v in r['checks'].items() if not v])}")
    sys.exit(0 if all(r["passed"] for r in results) else 1)


if __name__ == "__main__":
    main()
