#!/usr/bin/python3
"""Reports what a finray_plate_rack trajectory did: how far the Fin Ray fingers bent and
where the plate ended.

    scenarios/finray/check.py RUN.h5 [--json]

Finger bending: in every frame, the rigid motion of a finger's base (its mounting face,
the rest vertices at the finger's top, fitted by least squares) is applied to its rest
vertices; the deformation is each vertex's distance from that rigid pose. Reported: the
largest over vertices and frames, when and where (distance from the base), and per phase.

Plate: rigid fit of its vertices at the last frame: centroid, axis (the rest +z, the plate's
symmetry axis), tilt of the plate's plane from vertical, which rack slot holds it, its
lowest point against the rails' top, the contact forces on it, and its speed at the end.

Exit code 0 when the plate rests in a slot (its foot and centroid between two uprights, its centroid
within 3 mm of the height of a plate standing on the rails, carried by the rack alone, tilt < 15 deg, speed < 5 mm/s at the end and
untouched by the fingers), 1 otherwise, 2 on bad input.
"""
import argparse
import json
import os
import sys

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "generators"))
import dish_rack  # noqa: E402


def rigid_fit(P, Q):
    """R, t minimising sum |R p + t - q|^2 (Kabsch)."""
    cp, cq = P.mean(axis=0), Q.mean(axis=0)
    U, _, Vt = np.linalg.svd((P - cp).T @ (Q - cq))
    D = np.diag([1.0, 1.0, np.sign(np.linalg.det(Vt.T @ U.T))])
    R = Vt.T @ D @ U.T
    return R, cq - R @ cp


def tet_volume(V, T):
    a, b, c, d = (V[T[:, k]] for k in range(4))
    return np.einsum("ij,ij->i", np.cross(b - a, c - a), d - a).sum() / 6.0


def finger_report(body, times):
    rest = body["rest_vertices"][()]
    X = body["positions"]
    base = np.flatnonzero(rest[:, 2] >= rest[:, 2].max() - 1e-7)
    dev = np.empty(len(times))
    where = np.empty(len(times), dtype=int)
    for f in range(len(times)):
        x = X[f]
        R, t = rigid_fit(rest[base], x[base])
        d = np.linalg.norm(x - (rest @ R.T + t), axis=1)
        where[f] = int(np.argmax(d))
        dev[f] = d[where[f]]
    f = int(np.argmax(dev))
    v = where[f]
    return {
        "base_vertices": len(base),
        "max_deformation_m": float(dev[f]), "at_time_s": float(times[f]), "vertex": int(v),
        "vertex_distance_from_base_m": float(rest[:, 2].max() - rest[v, 2]),
        "deformation_series": dev,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    try:
        h5 = h5py.File(args.run, "r")
    except OSError as e:
        print(f"{args.run}: cannot read ({e})", file=sys.stderr)
        return 2
    if h5.attrs.get("status") != "complete":
        print(f"{args.run}: trajectory is not complete ({h5.attrs.get('status_reason', 'no status')})", file=sys.stderr)
    scene = json.loads(h5.attrs["scene_json"])
    bodies = {b["name"]: b for b in scene["bodies"]}
    times = h5["frames/time"][()]
    names = list(h5.attrs["body_names"])
    g = -float(scene.get("gravity", [0, 0, -9.81])[2])

    out = {"run": args.run, "frames": len(times), "t_end": float(times[-1])}
    for name in ("finger_left", "finger_right"):
        out[name] = finger_report(h5["bodies"][name], times)

    # Plate: rigid fit at the last frame.
    pb = h5["bodies/plate"]
    rest, x_end = pb["rest_vertices"][()], pb["positions"][-1]
    R, t = rigid_fit(rest, x_end)
    axis = R @ np.array([0.0, 0.0, 1.0])
    mass = bodies["plate"]["material"]["density"] * tet_volume(rest, pb["tets"][()])
    centroid = x_end.mean(axis=0)
    tilt = float(np.degrees(np.arcsin(min(1.0, abs(axis[2])))))          # plate plane from vertical
    yaw = float(np.degrees(np.arctan2(abs(axis[1]), abs(axis[0]))))       # axis from the slot normal x
    rack_x = bodies["rack"].get("transform", {}).get("translation", [0, 0, 0])[0]
    uprights = [rack_x + u for u in dish_rack.X_UPRIGHTS]
    rail_top = dish_rack.Z_RAIL + dish_rack.R
    # In slot k: the plate's foot (the part within 20 mm above the rails) lies between the
    # wires of uprights k and k + 1, and so does its centroid. (A plate leaning on an upright
    # may reach over that wire higher up.)
    foot = x_end[x_end[:, 2] < rail_top + 0.02]
    slot = None
    for k in range(len(uprights) - 1):
        r_in = dish_rack.R * np.cos(np.pi / dish_rack.SIDES)  # the octagonal wire's flat faces
        lo, hi = uprights[k] + r_in, uprights[k + 1] - r_in
        if len(foot) and foot[:, 0].min() > lo and foot[:, 0].max() < hi and lo < centroid[0] < hi:
            slot = k
    dt_frames = times[-1] - times[-2] if len(times) > 1 else 0.0
    speed = float(np.linalg.norm(pb["positions"][-1] - pb["positions"][-2], axis=1).max() / dt_frames) if dt_frames else 0.0

    forces = {}
    pairs = h5["contact/pairs"][()]
    normal, friction = h5["contact/normal_force"], h5["contact/friction_force"]
    for p, (a, b) in enumerate(pairs):
        if names[a] == "plate" or (b >= 0 and names[b] == "plate"):
            sign = 1.0 if names[a] == "plate" else -1.0
            other = "ground" if b < 0 else names[b] if names[a] == "plate" else names[a]
            forces[other] = (sign * (normal[-1, p] + friction[-1, p])).tolist()
    rack_fz = forces.get("rack", [0, 0, 0])[2]
    touched_by_fingers = any(np.linalg.norm(forces.get(n, [0, 0, 0])) > 1e-6 for n in ("finger_left", "finger_right"))

    plate = {
        "mass_kg": float(mass), "weight_N": float(mass * g),
        "centroid_m": centroid.tolist(), "axis": axis.tolist(),
        "tilt_from_vertical_deg": tilt, "axis_yaw_from_x_deg": yaw,
        "slot": slot, "slot_centre_x_m": None if slot is None else (uprights[slot] + uprights[slot + 1]) / 2,
        "slot_centres_x_m": [(uprights[k] + uprights[k + 1]) / 2 for k in range(len(uprights) - 1)],
        "lowest_z_m": float(x_end[:, 2].min()), "rail_top_z_m": rail_top,
        "contact_force_on_plate_N": forces, "rack_vertical_force_over_weight": float(rack_fz / (mass * g)),
        "max_vertex_speed_end_m_s": speed,
    }
    # Standing on the rails: the centroid as high as in the README's slot pose (1.5 mm above
    # the rails) less that clearance.
    if slot is not None:
        plate_obj = os.path.join(os.path.dirname(HERE), "assets", "drake_models", "dishes", "plate_8in_col.obj")
        _, _, placed = dish_rack.plate_in_slot(plate_obj, slot)
        plate["height_over_resting_pose_m"] = float(centroid[2] - (placed[:, 2].mean() - dish_rack.GAP))
    rests = (slot is not None and abs(plate["height_over_resting_pose_m"]) < 0.003 and tilt < 15.0
             and abs(plate["rack_vertical_force_over_weight"] - 1.0) < 0.1 and speed < 5e-3 and not touched_by_fingers)
    plate["rests_in_slot"] = bool(rests)
    out["plate"] = plate

    if args.json:
        for name in ("finger_left", "finger_right"):
            out[name].pop("deformation_series")
        print(json.dumps(out, indent=1))
    else:
        print(f"{args.run}: {len(times)} frames, t = 0 .. {times[-1]:.3f} s")
        for name in ("finger_left", "finger_right"):
            r = out[name]
            print(f"{name}: largest deformation {r['max_deformation_m'] * 1e3:.2f} mm at t = {r['at_time_s']:.2f} s "
                  f"(vertex {r['vertex']}, {r['vertex_distance_from_base_m'] * 1e3:.1f} mm from the base)")
        print(f"plate: mass {mass:.4f} kg; centroid {np.round(centroid, 4).tolist()} m; axis {np.round(axis, 3).tolist()}")
        print(f"plate: tilt from vertical {tilt:.2f} deg, axis yaw from x {yaw:.2f} deg; "
              f"slot {slot if slot is not None else 'none'}"
              + (f" (centre x = {plate['slot_centre_x_m']:.3f}, centroid off by {(centroid[0] - plate['slot_centre_x_m']) * 1e3:+.1f} mm)" if slot is not None else ""))
        print(f"plate: lowest point z = {plate['lowest_z_m']:.5f} m (rail top {rail_top:.5f}"
              + (f", centroid {plate['height_over_resting_pose_m'] * 1e3:+.2f} mm from standing on the rails" if slot is not None else "")
              + "); "
              f"rack carries {plate['rack_vertical_force_over_weight'] * 100:.1f}% of its weight; end speed {speed * 1e3:.2f} mm/s")
        for other, f in forces.items():
            print(f"  force on plate from {other}: {np.round(f, 4).tolist()} N")
        print("plate rests in its slot: " + ("yes" if rests else "NO"))
    return 0 if rests else 1


if __name__ == "__main__":
    sys.exit(main())
