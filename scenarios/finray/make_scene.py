#!/usr/bin/python3
"""Writes scenarios/finray_plate_rack.json: two Fin Ray fingers pick an 8-inch plate up from
the table, turn it upright, carry it over the wire dish rack and set it into a slot.

    scenarios/finray/make_scene.py [--out FILE]

Every keyframe is computed here from the parameters below (see scenarios/README.md,
section "FinRay"), so the motion script stays consistent when a parameter changes.

Frames (all in metres, world z up, the table is the ground plane z = 0):
- plate: plate.msh lying on the table, centred on the z axis, lifted by PLATE_LIFT.
- fingers: finray.msh (native: base z = 0, front wall x = 0, tip at z = 0.055) turned to
  point down (tip below the base) with the front wall facing the plate across y:
  left finger  R = Rz(-90) Rx(180): (x, y, z) -> (-y, -x, -z), at y < 0, front facing +y;
  right finger R = Rz(+90) Rx(180): (x, y, z) -> ( y,  x, -z), at y > 0, front facing -y.
  Their rest centroids share x and z, so the same rotation about y applied to each finger
  about its own centroid (how keyframe rotations work) turns the pair as one rigid gripper
  about the axis through both centroids: the grip axis.
- rack: dish_rack.obj translated by RACK_X along x (static).
"""
import argparse
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SCEN = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(SCEN, "generators"))
import dish_rack  # noqa: E402
import meshtools  # noqa: E402

# --- parameters ------------------------------------------------------------------------
DT, DURATION, OUTPUT_EVERY = 0.01, 4.0, 0.01
# dhat below the paper's 1e-3 m: the finger's fine surface (0.5-0.9 mm triangles, 1 mm ribs)
# has non-adjacent primitives closer than 1 mm at rest, which would put ~1e5 self-contact
# pairs in the barrier's range before anything touches (2e-4 still leaves some; 1e-4 none).
KAPPA, DHAT = 1e4, 1e-4
EPSV = 1e-3
FINGER = {"model": "linear_corotated", "youngs": 3e7, "poisson": 0.4, "density": 1200}
PLATE = {"model": "abd", "youngs": 1e7, "poisson": 0.3, "density": 2191}  # 0.375 kg (Drake's plate_8in.sdf)
PLATE_LIFT = 0.0008        # plate starts this high above the table (settles onto it)
PLATE_MIN_Z = 0.000208     # lowest point of plate_8in_col.obj
# The plate's outline is a 32-gon with a corner at +-y: turned by half a side (5.625 deg)
# a flat side faces each finger, a 19 mm line contact along the rim instead of a point; the
# line's torsional friction is what turns the plate upright about the grip axis.
PLATE_YAW = 180.0 / 32
REST_GAP = 0.00009         # measured: the plate settles this high on the table (barrier, dhat = 1e-4)
R_PLATE = 0.098105         # plate rim radius (plate_8in_col.obj), reached at z = 0.017
OPEN_CLEAR = 0.012         # open fingers: front walls this far outside the rim
SQUEEZE = 0.008            # closed fingers: front walls this far inside the rim (per finger)
TIP_Z = 0.002              # finger tips this high above the table while grasping
APPROACH_Z = 0.04          # the gripper comes down from this much higher
LIFT = 0.12               # first lift straight up: the plate turns clear of the table
RACK_X = 0.30              # rack centre x (slot k centre: RACK_X + dish_rack.X_SLOTS[k])
SLOT = 2
ABOVE_SLOT = 0.11         # carry height above the set-down pose: the plate clears the uprights (top 0.1015)
SLOT_DROP = 0.0            # set down this much below the README's slot pose (1.5 mm above the rails)
SLOT_DX = 0.0              # x correction of the set-down pose (measured plate offset in the grip)
RETREAT = 0.06

# Motion script: end times of the phases (approach, close, lift, turn, carry, lower, open,
# retreat; then the plate settles until DURATION). Each phase eases in and out (smoothstep)
# so the gripper never jumps in velocity: a keyframe kink would shake the plate in the grip
# with m dv / h. Keyframes are linear in between, so the curve is sampled at every time step
# (KEY_DT = DT): each step's move is then a chord of it. Sampled every 0.05 s, the gripper's
# velocity jumped every fifth step, and each jump cost Newton directions and broad phases
# (FinRay 4 s: 3.05 -> 2.04 directions a step, docs/performance.md).
T_APPROACH, T_CLOSE, T_LIFT, T_TURN, T_CARRY, T_LOWER, T_OPEN, T_RETREAT = 0.3, 0.7, 1.1, 2.0, 2.4, 3.0, 3.25, 3.6
KEY_DT = DT


def finger_centroid_native():
    V, _ = meshtools.read_msh22(os.path.join(SCEN, "assets", "generated", "finray.msh"))
    return V.mean(axis=0)


def r_y(deg):
    a = np.radians(deg)
    return np.array([[np.cos(a), 0, np.sin(a)], [0, 1, 0], [-np.sin(a), 0, np.cos(a)]])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(SCEN, "finray_plate_rack.json"))
    out = ap.parse_args().out

    c_native = finger_centroid_native()
    base_z = TIP_Z + 0.055                       # finger base plane (tip points down)
    y_front = R_PLATE + OPEN_CLEAR               # open: front walls at y = -+ y_front
    c_z = base_z - c_native[2]                   # both fingers' rest centroid height
    close = OPEN_CLEAR + SQUEEZE                 # closing travel of each finger along y

    # Where the plate must end (README slot table, rotation about the origin): x' = R x + t_slot.
    _, t_slot, _ = dish_rack.plate_in_slot(
        os.path.join(SCEN, "assets", "drake_models", "dishes", "plate_8in_col.obj"), SLOT)
    t_slot = np.array(t_slot) + [RACK_X + SLOT_DX, 0.0, -SLOT_DROP]
    # A plate point x (table pose x + d0) carried rigidly by the gripper turned by R about its
    # grip axis through (., ., c_z) and moved by T ends at c + R (x + d0 - c) + T. Setting
    # that equal to R x + t_slot gives T = t_slot - c - R (d0 - c), with c = (0, 0, c_z)
    # (the y part of c is unaffected by a rotation about y).
    R = r_y(90.0)
    c = np.array([0.0, 0.0, c_z])
    d0 = np.array([0.0, 0.0, REST_GAP - PLATE_MIN_Z])  # plate offset from its OBJ pose when grasped
    T_place = t_slot - c - R @ (d0 - c)
    T_place[1] = 0.0

    # The fingers start where the approach starts: their transform holds that pose, and the
    # keyframes move them from there (a motion must start at rest where the transform puts it).
    start = np.array([0.0, 0.0, APPROACH_Z])

    def key(t, pos, deg):
        return {"t": round(t, 9), "translation": [round(float(v), 9) for v in np.subtract(pos, start)],
                "rotation_deg": [0.0, round(deg, 9), 0.0]}

    def script(side):  # side -1: left finger (y < 0), +1: right finger
        o = -side * close                                    # closing offset along y
        poses = [  # (end time, translation, rotation about y in degrees)
            (0.0, [0, 0, APPROACH_Z], 0.0),
            (T_APPROACH, [0, 0, 0], 0.0),
            (T_CLOSE, [0, o, 0], 0.0),
            (T_LIFT, [0, o, LIFT], 0.0),
            (T_TURN, [T_place[0] - 0.15, o, T_place[2] + ABOVE_SLOT], 90.0),
            (T_CARRY, [T_place[0], o, T_place[2] + ABOVE_SLOT], 90.0),
            (T_LOWER, [T_place[0], o, T_place[2]], 90.0),
            (T_OPEN, [T_place[0], 0, T_place[2]], 90.0),
            (T_RETREAT, [T_place[0], 0, T_place[2] + RETREAT], 90.0),
        ]
        keys = [key(0.0, poses[0][1], poses[0][2])]
        for (t0, p0, a0), (t1, p1, a1) in zip(poses, poses[1:]):
            n = max(1, int(round((t1 - t0) / KEY_DT)))
            for i in range(1, n + 1):
                u = i / n
                s = u * u * (3 - 2 * u)  # smoothstep: zero velocity at both ends of the phase
                keys.append(key(t0 + u * (t1 - t0), np.add(p0, s * np.subtract(p1, p0)), a0 + s * (a1 - a0)))
        return keys

    def finger(name, side):
        return {
            "name": name,
            "mesh": "assets/generated/finray.msh",
            "material": dict(FINGER),
            "embeddings": {"coarse": "assets/generated/finray_coarse.msh"},
            "embedding": "coarse",
            "transform": {"rotation_deg": [180.0, 0.0, 90.0 * side], "translation": [0.0, side * y_front, base_z + start[2]]},
            "prescribed": [{"vertices": {"box": [[-1, -1, base_z + start[2] - 1e-6], [1, 1, 1]]}, "motion": script(side)}],
        }

    scene = {
        "format": "eipc-scene", "version": 1,
        "name": "finray_plate_rack",
        "duration": DURATION, "dt": DT, "gravity": [0, 0, -9.81],
        "contact": {"kappa": KAPPA, "dhat": DHAT, "epsv": EPSV, "friction": 1.0},
        "solver": {"newton_tol": 1e-5, "max_newton_iters": 200},
        "ground": {"height": 0.0},
        "output": {"every": OUTPUT_EVERY},
        "bodies": [
            {"name": "plate", "mesh": "assets/generated/plate.msh", "material": dict(PLATE),
             "embedding": "affine",
             "transform": {"rotation_deg": [0.0, 0.0, PLATE_YAW], "translation": [0.0, 0.0, PLATE_LIFT]}},
            finger("finger_left", -1),
            finger("finger_right", +1),
            {"name": "rack", "mesh": "assets/generated/dish_rack.obj", "kinematic": True,
             "transform": {"translation": [RACK_X, 0.0, 0.0]}},
        ],
    }
    text = json.dumps(scene, indent=1)
    with open(out, "w") as f:
        f.write(text + "\n")
    print(f"wrote {out}: grip axis z = {c_z:.6f}, set-down translation {T_place.round(6).tolist()}")


if __name__ == "__main__":
    main()
