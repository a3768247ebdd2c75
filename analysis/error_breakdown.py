#!/usr/bin/python3
"""Where E(h) comes from: docs/error-metric.md's E of runs at several h against one
reference, split into parts whose squares add up to E^2 (time windows, bodies,
axes, and one body's rigid translation, small rotation and deformation), with the
two-point order of each part between consecutive runs.

    analysis/error_breakdown.py REFERENCE.h5 RUN.h5... [--windows T0,T1,...]
                                [--window-names A,B,...] [--rigid BODY]

Runs are given from the largest h to the smallest. Frames are matched as
`eipc error` matches them (step index times dt_run / dt_ref, frame 0 left out)
over every body of the run that is not kinematic, so the first row is `eipc
error`'s E. Prints a Markdown table: each part's E_part = sqrt(its share of E^2).
"""
import argparse
import math
import sys

import h5py
import numpy as np


def load(path):
    """Time step, frames and the positions of the bodies that are not kinematic."""
    try:
        with h5py.File(path, "r") as f:
            names = [n.decode() if isinstance(n, bytes) else str(n) for n in f.attrs["body_names"]]
            bodies = [n for n in names if not f[f"bodies/{n}"].attrs.get("kinematic", 0)]
            return {
                "dt": float(f.attrs["dt"]),
                "step": f["frames/step"][:],
                "time": f["frames/time"][:],
                "bodies": bodies,
                "positions": {n: f[f"bodies/{n}/positions"][:] for n in bodies},
            }
    except (OSError, KeyError) as e:
        sys.exit(f"error: {path}: not a readable eipc trajectory ({e})")


def matched_frames(run, ref, path):
    ratio = run["dt"] / ref["dt"]
    r = int(round(ratio))
    if r < 1 or abs(ratio - r) > 1e-9 * ratio:
        sys.exit(f"error: {path}: dt {run['dt']} is not a whole multiple of the reference's {ref['dt']}")
    at = {int(s): i for i, s in enumerate(ref["step"])}
    pairs = []
    for i, s in enumerate(run["step"]):
        if s < 1:
            continue
        if int(s) * r not in at:
            sys.exit(f"error: {path}: the reference has no frame at t = {run['time'][i]:g} s")
        pairs.append((i, at[int(s) * r]))
    return pairs


def rigid_split(e, x_ref):
    """Orthogonal split of errors e (N x 3) at reference positions x_ref into translation,
    small rotation (least-squares omega x (x - centroid)) and the rest; squared sums per axis."""
    t = e.mean(axis=0)
    c = x_ref - x_ref.mean(axis=0)
    a = np.zeros((3 * len(c), 3))  # rows of omega x c = -[c]x omega
    a[0::3, 1], a[0::3, 2] = c[:, 2], -c[:, 1]
    a[1::3, 0], a[1::3, 2] = -c[:, 2], c[:, 0]
    a[2::3, 0], a[2::3, 1] = c[:, 1], -c[:, 0]
    omega = np.linalg.lstsq(a, (e - t).reshape(-1), rcond=None)[0]
    rotation = (a @ omega).reshape(-1, 3)
    return {"translation": len(e) * t**2, "rotation": (rotation**2).sum(axis=0),
            "deformation": ((e - t - rotation) ** 2).sum(axis=0)}


def breakdown(run_path, ref, windows, window_names, rigid):
    run = load(run_path)
    pairs = matched_frames(run, ref, run_path)
    vertices = sum(run["positions"][b].shape[1] for b in run["bodies"])
    scale = 1.0 / (len(pairs) * vertices)
    parts = {}

    def add(key, value):
        parts[key] = parts.get(key, 0.0) + scale * float(np.sum(value))

    for i, j in pairs:
        t = run["time"][i]
        window = np.searchsorted(windows, t, side="right") - 1
        for b in run["bodies"]:
            e = run["positions"][b][i] - ref["positions"][b][j]
            sq = (e**2).sum(axis=0)
            add("E", sq)
            if 0 <= window < len(window_names):
                add(f"t in {window_names[window]}", sq)
            add(f"body {b}", sq)
            for axis, name in enumerate("xyz"):
                add(f"axis {name}", sq[axis])
            if b == rigid:
                for kind, s in rigid_split(e, ref["positions"][b][j]).items():
                    add(f"{b}: {kind}", s)
                    for axis, name in enumerate("xyz"):
                        add(f"{b}: {kind} {name}", s[axis])
    return run["dt"], {k: math.sqrt(v) for k, v in parts.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("reference")
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--windows", default="", help="time window edges, e.g. 0,0.3,0.5,1.5,1.8,3,4")
    ap.add_argument("--window-names", default="", help="one name per window (default: the edges)")
    ap.add_argument("--rigid", default="", help="split this body's error into translation, rotation, deformation")
    a = ap.parse_args()
    edges = [float(v) for v in a.windows.split(",")] if a.windows else []
    names = a.window_names.split(",") if a.window_names else [
        f"[{lo:g}, {hi:g})" for lo, hi in zip(edges, edges[1:])]
    if edges and len(names) != len(edges) - 1:
        sys.exit("error: --window-names needs one name per window (edges - 1)")
    edges[-1:] = [edges[-1] + 1e-9] if edges else []  # the last edge's frame belongs to the last window
    ref = load(a.reference)
    results = [breakdown(p, ref, np.array(edges), names, a.rigid) for p in a.runs]
    keys = []
    for _, parts in results:
        keys += [k for k in parts if k not in keys]
    group = ("E", "t in ", "body ", "axis ")
    keys.sort(key=lambda k: next((i for i, g in enumerate(group) if k.startswith(g)), len(group)))  # stable
    orders = [f"order {h1:g}->{h2:g}" for (h1, _), (h2, _) in zip(results, results[1:])]
    print("| part | " + " | ".join(f"E_part h = {h:g} [m]" for h, _ in results) + " | " + " | ".join(orders) + " |")
    print("|---|" + "---:|" * (len(results) + len(orders)))
    for k in keys:
        values = [parts.get(k, 0.0) for _, parts in results]
        cells = [f"{v:.3e}" for v in values]
        for (h1, _), (h2, _), v1, v2 in zip(results, results[1:], values, values[1:]):
            cells.append(f"{math.log(v1 / v2) / math.log(h1 / h2):.2f}" if v1 > 0 and v2 > 0 else "")
        print(f"| {k} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
