#!/usr/bin/python3
"""Prints the teddy's converged hold force (N), the reference that `eipc report
--force-reference` and the locking tables compare every method with (reference() below):
the Richardson limit of the bear refined self-similarly with the committed bubbles
(results/locking_richardson_fit.csv, scenarios/locking/richardson.py: Poisson 0.45, "teddy,
bubbles at level 0"), with its uncertainty, once that series has three levels in the
asymptotic range (observed order within ASYMPTOTIC_ORDERS); until then the finest complete
level of results/locking_reference.csv (scenarios/locking/reference_series.py), with none.

    scenarios/locking/converged_force.py [--nodes]     (--nodes: print the finest level's node count too)
    scenarios/locking/converged_force.py --extrapolate  (the TetGen series: how far its finest level may be from the limit)

--extrapolate fits F(N) = F_inf + C h^p, h = N^(-1/3) the mean node spacing, by least squares to
the complete levels of locking_reference.csv whose surface has been split at least once (the coarser ones keep Drake's
312 surface vertices and converge along another path), for p = 1 and 2, and prints F_inf of
each with the fit's residuals: an estimate of the limit, not a measurement of it.
"""
import csv
import os
import sys

RESULTS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "results")
SERIES = os.path.join(RESULTS, "locking_reference.csv")
RICHARDSON = os.path.join(RESULTS, "locking_richardson")  # .csv (levels) and _fit.csv
RICHARDSON_SERIES = ("0.45", "teddy, bubbles at level 0")  # the bubbles every embedding grasps with
# A three-level extrapolation is trusted only when the observed order is near the formal
# one (2 for linear tets); outside, the levels are not yet in the asymptotic range and the
# limit and its uncertainty mean nothing (Roache's grid convergence index assumes it).
ASYMPTOTIC_ORDERS = (1.0, 3.0)


def converged_level(path=SERIES):
    """The finest complete level: its row of the series (surface_splits, max_tet_volume, ...)."""
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["status"] == "complete"]
    if not rows:
        sys.exit(f"error: {path}: no complete level")
    return max(rows, key=lambda r: int(r["nodes"]))


def reference():
    """{force, uncertainty (N, or None), nodes (of the finest level used), source (text)}."""
    fit_path = RICHARDSON + "_fit.csv"
    fits = [r for r in csv.DictReader(open(fit_path, newline=""))] if os.path.exists(fit_path) else []
    fit = next((r for r in fits if (r["poisson"], r["refined"]) == RICHARDSON_SERIES), None)
    if fit and ASYMPTOTIC_ORDERS[0] <= float(fit["order"]) <= ASYMPTOTIC_ORDERS[1]:
        finest = int(fit["levels"].split("-")[1])
        levels = [r for r in csv.DictReader(open(RICHARDSON + ".csv", newline=""))
                  if r["poisson"] == fit["poisson"] and r["bubble_level"] == "0" and int(r["level"]) == finest]
        return {"force": float(fit["limit_N"]), "uncertainty": float(fit["uncertainty_N"]),
                "nodes": int(levels[0]["teddy_nodes"]),
                "source": f"the Richardson limit of the bear red-refined {fit['levels']} times with the "
                          f"committed bubbles (results/locking_richardson.md)"}
    finest = converged_level()
    why = (f"; the self-similar series' observed order is {float(fit['order']):.2f}, not yet asymptotic "
           f"(results/locking_richardson.md)" if fit else "")
    return {"force": float(finest["hold_force_N"]), "uncertainty": None, "nodes": int(finest["nodes"]),
            "source": f"the full-space bear at {finest['nodes']} nodes (results/locking_reference.md){why}"}


def converged_force():
    """(hold force in N, nodes): reference()'s."""
    r = reference()
    return r["force"], r["nodes"]


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
        level = converged_level()
        finest, nodes = float(level["hold_force_N"]), int(level["nodes"])
        for p, limit, _, residuals in extrapolations():
            print(f"p = {p}: F_inf = {limit:.3f} N ({limit / finest - 1:+.1%} from the finest level's "
                  f"{finest:.3f} N at {nodes} nodes); residuals {', '.join(f'{r:+.3f}' for r in residuals)} N")
        sys.exit(0)
    force, nodes = converged_force()
    print(f"{force!r} {nodes}" if "--nodes" in sys.argv[1:] else repr(force))
