#!/usr/bin/python3
"""A drape's shape against a reference's, statistics that do not care which way each fold
went (scenarios/cloth/README.md, "E(h) does not converge"): at each given time, for one body,
the error of its centroid height and the RMS difference of its sorted vertex heights (its
height profile: the same cloth at the same heights gives 0 whatever its folds' places).

    analysis/drape_statistics.py REFERENCE.h5 RUN.h5... --body NAME [--times T1,T2,...]

Each run's frame nearest each time is compared with the reference's nearest frame (within
half a run step). Prints a Markdown table in mm, one row per run, then two-point orders
between consecutive runs given from the largest h to the smallest.
"""
import argparse
import math
import sys

import h5py
import numpy as np


def heights(path, body, times):
    """dt and, per time, the body's vertex heights of the frame nearest to it."""
    with h5py.File(path, "r") as f:
        if f"bodies/{body}" not in f:
            sys.exit(f"error: {path}: no body '{body}'")
        t = f["frames/time"][:]
        x = f[f"bodies/{body}/positions"]
        dt = float(f.attrs["dt"])
        out = []
        for s in times:
            i = int(np.argmin(np.abs(t - s)))
            if abs(t[i] - s) > 0.5 * dt + 1e-9:
                sys.exit(f"error: {path}: no frame at t = {s} (nearest {t[i]})")
            out.append(x[i][:, 2])
        return dt, out


def errors(z, ref):
    """(centroid height error, height profile RMS) of heights z against ref, per time: each a
    list of one frame's vertex heights (the same count in both)."""
    centroid = [abs(np.mean(zi) - np.mean(ri)) for zi, ri in zip(z, ref)]
    profile = [math.sqrt(np.mean((np.sort(zi) - np.sort(ri)) ** 2)) for zi, ri in zip(z, ref)]
    return centroid, profile


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("reference")
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--body", required=True)
    ap.add_argument("--times", default="0.1,0.2,0.3,0.4,0.5")
    a = ap.parse_args()
    times = [float(s) for s in a.times.split(",")]
    _, ref = heights(a.reference, a.body, times)
    rows = []
    for path in a.runs:
        dt, z = heights(path, a.body, times)
        rows.append((path, dt, *errors(z, ref)))
    head = " | ".join(f"t = {s:g}" for s in times)
    print(f"| run | h (s) | centroid height error (mm): {head} | height profile RMS (mm): {head} |")
    print("|---|---:|" + "---:|" * (2 * len(times)))
    for path, dt, c, p in rows:
        print(f"| {path} | {dt:g} | " + " | ".join(f"{v * 1e3:.2f}" for v in c + p) + " |")
    for (p0, h0, c0, q0), (p1, h1, c1, q1) in zip(rows, rows[1:]):
        order = [math.log(x0 / x1) / math.log(h0 / h1) if x0 > 0 and x1 > 0 else float("nan")
                 for x0, x1 in zip(c0 + q0, c1 + q1)]
        print(f"| order {h0:g} -> {h1:g} | | " + " | ".join(f"{o:.2f}" for o in order) + " |")


if __name__ == "__main__":
    main()
