#!/usr/bin/python3
"""Prints the teddy's converged hold force (N): the finest complete level of
results/locking_reference.csv (scenarios/locking/reference_series.py), the reference
that `eipc report --force-reference` compares every method with.

    scenarios/locking/converged_force.py [--nodes]     (--nodes: print that level's node count too)
    scenarios/locking/converged_force.py --extrapolate  (how far the finest level may still be from the limit)

--extrapolate fits F(N) = F_inf + C h^p, h = N^(-1/3) the mean node spacing, by least squares to
the complete levels whose surface has been split at least once (the coarser ones keep Drake's
312 surface vertices and converge along another path), for p = 1 and 2, and prints F_inf of
each with the fit's residuals: an estimate of the limit, not a measurement of it.
"""
import csv
import os
import sys

SERIES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                      "results", "locking_reference.csv")


def converged_level(path=SERIES):
    """The finest complete level: its row of the series (surface_splits, max_tet_volume, ...)."""
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["status"] == "complete"]
    if not rows:
        sys.exit(f"error: {path}: no complete level")
    return max(rows, key=lambda r: int(r["nodes"]))


def converged_force(path=SERIES):
    """(hold force in N, nodes) of the finest complete level."""
    finest = converged_level(path)
    return float(finest["hold_force_N"]), int(finest["nodes"])


def extrapolations(path=SERIES, orders=(1, 2)):
    """[(p, F_inf, C, residuals)] of the fits described in the module's docstring."""
    import numpy as np
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["status"] == "complete" and int(r["surface_splits"]) >= 1]
    if len(rows) < 3:
        sys.exit(f"error: {path}: {len(rows)} complete levels with a split surface; a fit needs 3")
    h = np.array([int(r["nodes"]) for r in rows]) ** (-1.0 / 3.0)
    force = np.array([float(r["hold_force_N"]) for r in rows])
    out = []
    for p in orders:
        a = np.vstack([np.ones_like(h), h ** p]).T
        (limit, c), *_ = np.linalg.lstsq(a, force, rcond=None)
        out.append((p, limit, c, force - a @ np.array([limit, c])))
    return out


if __name__ == "__main__":
    if "--extrapolate" in sys.argv[1:]:
        finest, nodes = converged_force()
        for p, limit, _, residuals in extrapolations():
            print(f"p = {p}: F_inf = {limit:.3f} N ({limit / finest - 1:+.1%} from the finest level's "
                  f"{finest:.3f} N at {nodes} nodes); residuals {', '.join(f'{r:+.3f}' for r in residuals)} N")
        sys.exit(0)
    force, nodes = converged_force()
    print(f"{force!r} {nodes}" if "--nodes" in sys.argv[1:] else repr(force))
