"""The report's figures: contact forces and contact counts over time, E vs h, wall-clock vs h,
E vs wall-clock. Each method keeps one colour and marker in every figure."""
import math

import numpy as np

from . import style
from .methods import format_step


def _legend_above(ax, count):
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.02), ncol=min(count, 4), borderaxespad=0.0,
              handlelength=1.8, columnspacing=1.0)


def forces(series, styles, pair, dt, out_dir):
    """series: {method: PairSeries}. Total contact force (normal + friction) on pair[0] from pair[1]."""
    fig, axes = style.figure(3.6, rows=3)
    for method, s in series.items():
        total = s.normal + s.friction
        for k, ax in enumerate(axes):
            ax.plot(s.time, total[:, k], label=method, **style.series_style(styles[method]))
    for k, ax in enumerate(axes):
        ax.set_ylabel(f"$f_{'xyz'[k]}$ [N]")
    axes[-1].set_xlabel("time [s]")
    fig.suptitle(f"contact force on {pair[0]} from {pair[1]} (h = {format_step(dt)} s)", fontsize=8)
    _legend_above(axes[0], len(series))
    return style.save(fig, out_dir, "contact_forces")


def contact_pairs(series, styles, pair, dt, out_dir):
    """Active contact primitive pairs of the whole scene, and between the two bodies."""
    fig, axes = style.figure(2.8, rows=2)
    for method, s in series.items():
        axes[0].plot(s.time, s.active_pairs, label=method, **style.series_style(styles[method]))
        axes[1].plot(s.time, s.pair_count, label=method, **style.series_style(styles[method]))
    for ax, what in zip(axes, ("all bodies", f"{pair[0]}–{pair[1]}")):
        ax.set_ylabel("pairs")
        ax.text(0.01, 0.95, what, transform=ax.transAxes, va="top", fontsize=7,
                bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.8, "pad": 1})
    axes[1].set_xlabel("time [s]")
    fig.suptitle(f"contact primitive pairs (h = {format_step(dt)} s)", fontsize=8)
    _legend_above(axes[0], len(series))
    return style.save(fig, out_dir, "contact_pairs")


def _loglog_lines(ax, curves, styles):
    """curves: {method: (x list, y list)}; points in the given order joined by lines.
    Returns False (and says so on the axes) when there is nothing to draw."""
    drawn = False
    for method, (x, y) in curves.items():
        if x:
            ax.loglog(x, y, linestyle="-", label=method, color=styles[method]["color"],
                      marker=styles[method]["marker"])
            drawn = True
    if not drawn:
        ax.text(0.5, 0.5, "no data: no finished run has this quantity", transform=ax.transAxes,
                ha="center", va="center", fontsize=7)
    return drawn


def _positive(x):
    """Can be placed on a log axis."""
    return x is not None and math.isfinite(x) and x > 0


def error_vs_dt(convergence, styles, out_dir):
    fig, (ax,) = style.figure(2.6)
    curves = {}
    for row in convergence:
        pts = sorted((h, e) for h, e in row["errors"].items() if _positive(e))
        curves[row["embedding"]] = ([h for h, _ in pts], [e for _, e in pts])
    if _loglog_lines(ax, curves, styles):
        xs = np.array([h for x, _ in curves.values() for h in x])
        ys = np.array([e for _, y in curves.values() for e in y])
        # First-order reference through the geometric mean of all points.
        h = np.array([xs.min(), xs.max()]) if xs.min() < xs.max() else xs.min() * np.array([0.5, 2.0])
        c = np.exp(np.mean(np.log(ys)) - np.mean(np.log(xs)))
        ax.loglog(h, c * h, "k--", linewidth=0.8, label="first order")
        style.log_axis(ax.xaxis, xs)
        style.log_axis(ax.yaxis)
        ax.legend()
    ax.set_xlabel("time step h [s]")
    ax.set_ylabel("error E(h) [m]")
    return style.save(fig, out_dir, "error_vs_dt")


def wall_vs_dt(timing, styles, out_dir):
    fig, (ax,) = style.figure(2.6)
    curves = {}
    for row in timing:
        x, y = curves.setdefault(row["embedding"], ([], []))
        if _positive(row["run"].wall_seconds):
            x.append(row["dt"])
            y.append(row["run"].wall_seconds)
    if _loglog_lines(ax, curves, styles):
        style.log_axis(ax.xaxis, [h for x, _ in curves.values() for h in x])
        style.log_axis(ax.yaxis)
        ax.legend()
    ax.set_xlabel("time step h [s]")
    ax.set_ylabel("wall-clock time [s]")
    return style.save(fig, out_dir, "wall_vs_dt")


def error_vs_wall(convergence, timing, styles, out_dir):
    wall = {(r["embedding"], r["dt"]): r["run"].wall_seconds for r in timing}
    fig, (ax,) = style.figure(2.6)
    curves = {}
    for row in convergence:
        pts = sorted((wall[(row["embedding"], h)], e) for h, e in row["errors"].items()
                     if _positive(e) and _positive(wall.get((row["embedding"], h))))
        curves[row["embedding"]] = ([w for w, _ in pts], [e for _, e in pts])
    if _loglog_lines(ax, curves, styles):
        style.log_axis(ax.xaxis)
        style.log_axis(ax.yaxis)
        ax.legend()
    ax.set_xlabel("wall-clock time [s]")
    ax.set_ylabel("error E(h) [m]")
    return style.save(fig, out_dir, "error_vs_wall")


def force_error_vs_wall(rows, styles, out_dir):
    """|force error| of each method's hold force against its wall time (one point per method)."""
    fig, (ax,) = style.figure(2.6)
    for r in rows:
        if r["force_error"] is None or not _positive(r["wall_s"]):
            continue
        s = styles[r["embedding"]]
        ax.plot([r["wall_s"]], [100 * abs(r["force_error"])], linestyle="none", marker=s["marker"],
                color=s["color"], label=r["embedding"])
    ax.axhline(5, color="0.5", linewidth=0.6, linestyle="--")
    ax.set_xscale("log")
    style.log_axis(ax.xaxis)
    ax.set_ylim(bottom=0)
    ax.set_xlabel(f"wall-clock time at h = {format_step(rows[0]['wall_dt'])} s [s]" if rows and rows[0]["wall_dt"]
                  else "wall-clock time [s]")
    ax.set_ylabel("|hold force error| [%]")
    ax.legend(fontsize=6)
    ax.set_title("against the converged reference (dashed: 5%)", fontsize=7)
    return style.save(fig, out_dir, "force_error_vs_wall")
