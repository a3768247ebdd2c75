#!/usr/bin/python3
"""Penetration depth over time per body pair, from the certificate, for peer trajectories.

    /usr/bin/python3 analysis/peers_depth.py TRAJECTORY.h5... [--eipc build/bin/eipc] [--out results/peers]

For each trajectory: `eipc certify --json` (reused when TRAJECTORY.certify.json exists),
then one plot OUT/depth_<stem>.png with the certified depth of every intersecting body pair
against time and, when the trajectory holds the engine's own measure (the frames'
min_distance: MuJoCo's contact distance at the stored state), minus that as a dashed line.
Prints one line per trajectory: the deepest certified penetration per pair and the
engine's own deepest contact.
"""
import argparse
import json
import os
import subprocess
import sys

import h5py
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def certificate(path, eipc):
    cached = path[:-3] + ".certify.json"
    if os.path.exists(cached):
        return json.load(open(cached))
    out = subprocess.run([eipc, "certify", path, "--json"], capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit(f"error: eipc certify {path} failed (exit {out.returncode}): {out.stderr.strip()}")
    with open(cached, "w") as f:
        f.write(out.stdout)
    return json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trajectories", nargs="+")
    ap.add_argument("--eipc", default=os.path.join(ROOT, "build", "bin", "eipc"))
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "peers"))
    args = ap.parse_args()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    os.makedirs(args.out, exist_ok=True)
    for path in args.trajectories:
        if not os.path.exists(path):
            sys.exit(f"error: {path}: no such trajectory")
        report = certificate(path, args.eipc)
        with h5py.File(path, "r") as f:
            t = f["frames/time"][:]
            own = f["frames/min_distance"][:]
            engine = f.attrs.get("engine", "eipc")
        series = {}
        for fr in report["frames"]:
            for p in fr.get("pairs", []):
                if p["depth"] is not None:
                    series.setdefault(f"{p['body_a']}–{p['body_b']}", {})[fr["frame"]] = p["depth"]
        fig, ax = plt.subplots(figsize=(7, 3.5))
        for pair, depth in sorted(series.items()):
            d = np.zeros(len(t))
            d[list(depth)] = list(depth.values())
            ax.plot(t, d * 1e3, label=f"{pair} (certified)")
        measured = np.isfinite(own).any()
        if measured:
            ax.plot(t, np.maximum(0, -np.nan_to_num(own, nan=0.0)) * 1e3, "k--", label=f"{engine}'s own deepest contact")
        ax.set_xlabel("t [s]")
        ax.set_ylabel("penetration depth [mm]")
        stem = os.path.basename(path)[:-3]
        ax.set_title(stem)
        if series or measured:
            ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(args.out, f"depth_{stem}.png"), dpi=100)
        plt.close(fig)
        deepest = {pair: max(d.values()) for pair, d in series.items()}
        own_max = max(0.0, -float(np.nanmin(own))) if measured else None
        print(f"{stem}: certified " + (", ".join(f"{k} {v * 1e3:.2f} mm" for k, v in sorted(deepest.items())) or "clear") +
              ("" if own_max is None else f"; {engine}'s own {own_max * 1e3:.2f} mm"))


if __name__ == "__main__":
    main()
