"""Hold force: each method's mean contact force on body A from body B over a hold window,
against a converged reference (issue 40: how much too stiff a coarse embedding is).

hold_force_N = mean over t0 <= t <= t1 of the (normal + friction) force component on
A from B along the chosen axis, at the force plots' h; force_error = (hold - reference)
/ reference, the signed relative error: positive when the method's force is larger in
magnitude than the reference (docs/report.md).
"""
import csv
import math

import h5py
import numpy as np

from .errors import InputError
from .methods import format_step

AXES = {"x": 0, "y": 1, "z": 2}


def parse_hold(text):
    """'T0,T1' -> (t0, t1) with 0 <= t0 < t1."""
    parts = text.split(",")
    try:
        t0, t1 = (float(p) for p in parts)
    except ValueError:
        raise InputError(f"--hold: '{text}' is not a time window 'T0,T1' in seconds") from None
    if not (math.isfinite(t0) and math.isfinite(t1) and 0 <= t0 < t1):
        raise InputError(f"--hold: '{text}': need 0 <= T0 < T1")
    return t0, t1


def body_nodes(path, body):
    """Simulation nodes of `body` in a trajectory: its embedding's vertices, else its vertices."""
    with h5py.File(path, "r") as f:
        group = f[f"bodies/{body}"]
        if "embedding/vertices" in group:
            return int(group["embedding/vertices"].shape[0])
        return int(group["rest_vertices"].shape[0])


def mean_force(series, window, axis, run="the"):
    """Mean (normal + friction) force component along `axis` over t0 <= t <= t1 of a pair
    series (trajectory.read_pair_series); InputError when no frame lies in the window."""
    t0, t1 = window
    held = (series.time >= t0 - 1e-9) & (series.time <= t1 + 1e-9)
    if not held.any():
        raise InputError(f"--hold {t0:g},{t1:g}: no frame of {run} run lies in the window "
                         f"(it ends at {series.time[-1]:g} s)")
    return float(np.mean(series.normal[held, AXES[axis]] + series.friction[held, AXES[axis]]))


def hold_rows(series, nodes, window, axis, reference, convergence, timing):
    """One row per method with a force series: nodes of B, hold force, its error against
    the reference (None without one), the wall time at the largest h and the fitted order."""
    order = {row["embedding"]: row["order"] for row in convergence}
    rows = []
    for method, s in series.items():
        force = mean_force(s, window, axis, run=f"the {method}")
        error = None if reference is None else (force - reference) / reference
        runs = [r for r in timing if r["embedding"] == method and r["run"].wall_seconds is not None]
        slowest_h = max(runs, key=lambda r: r["dt"]) if runs else None
        rows.append({"embedding": method, "nodes": nodes[method], "hold_force_N": force, "force_error": error,
                     "wall_dt": slowest_h["dt"] if slowest_h else None,
                     "wall_s": slowest_h["run"].wall_seconds if slowest_h else None,
                     "fitted_order": order.get(method)})
    return rows


FIELDS = ["embedding", "nodes", "hold_force_N", "force_error", "wall_s", "wall_dt", "fitted_order"]


def write_csv(path, rows, reference):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(FIELDS)
        if reference is not None:
            w.writerow(["converged reference", "", repr(reference), "0.0", "", "", ""])
        for row in rows:
            w.writerow(["" if row[k] is None else (repr(row[k]) if isinstance(row[k], float) else row[k])
                        for k in FIELDS])


def markdown(rows, window, axis, pair, force_dt, reference):
    text = (f"Mean {axis} force (normal + friction) on {pair[0]} from {pair[1]} over "
            f"{window[0]:g} <= t <= {window[1]:g} s at h = {format_step(force_dt)} s; nodes: {pair[1]}'s "
            f"simulation nodes; wall time at the largest h (`hold_force.csv`).")
    if reference is not None:
        text += f" Force error: signed, against the converged reference {reference:g} N."
    lines = [text + "\n", "| method | nodes | hold force [N] | force error | wall [s] | fitted order |",
             "|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        error = "–" if r["force_error"] is None else f"{100 * r['force_error']:+.1f}%"
        wall = "–" if r["wall_s"] is None else f"{r['wall_s']:.3g} (h = {format_step(r['wall_dt'])})"
        order = "–" if r["fitted_order"] is None else f"{r['fitted_order']:.3f}"
        lines.append(f"| {r['embedding']} | {r['nodes']} | {r['hold_force_N']:.3f} | {error} | {wall} | {order} |")
    return "\n".join(lines) + "\n"
