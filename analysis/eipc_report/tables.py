"""Convergence and timing tables (rows as dicts, written as CSV and markdown)."""
import csv

from .fit import fitted_order
from .methods import by_method_and_step, format_step, method_order, time_steps


def convergence(runs):
    """Per method: E for each h of its finished runs, the fitted order (None if < 2 usable
    points) and the exit codes of its failed runs per h."""
    table = by_method_and_step(runs)
    steps = time_steps(runs)
    result = []
    for m in method_order(runs):
        errors = {h: table[(m, h)].error for h in steps if (m, h) in table}
        usable = {h: e for h, e in errors.items() if e is not None}
        failed = {r.dt: r.exit_code for r in runs if r.embedding == m and not r.ok}
        result.append({"embedding": m, "errors": errors, "failed": failed,
                       "order": fitted_order(list(usable), list(usable.values()))})
    return result


def timing(runs):
    """Per method and h: wall seconds, RTF, Newton iterations and full-space wall / this wall."""
    table = by_method_and_step(runs)
    rows = []
    for m in method_order(runs):
        for h in time_steps(runs):
            run = table.get((m, h))
            if run is None:
                continue
            full = table.get(("full", h))
            speedup = None
            if full is not None and run.wall_seconds and full.wall_seconds is not None:
                speedup = full.wall_seconds / run.wall_seconds
            rows.append({"embedding": m, "dt": h, "run": run, "speedup_vs_full": speedup})
    return rows


def _sig(x, digits=3):
    return "–" if x is None else f"{x:.{digits}g}"


def _sci(x):
    return "–" if x is None else f"{x:.3e}"


def _raw(x):
    """Full precision for CSV (repr round-trips a float exactly)."""
    return "" if x is None else repr(x)


def write_convergence_csv(path, scenario, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["scenario", "embedding", "dt", "error", "fitted_order"])
        for row in rows:
            for h, e in sorted(row["errors"].items()):
                w.writerow([scenario, row["embedding"], _raw(h), _raw(e), _raw(row["order"])])


def _error_cell(row, h):
    if h in row["errors"]:
        e = row["errors"][h]
        return "no reference" if e is None else _sci(e)
    if h in row["failed"]:
        return f"failed (exit {row['failed'][h]})"
    return "not run"


def convergence_markdown(rows, steps):
    head = "| method | " + " | ".join(f"E(h = {format_step(h)} s) [m]" for h in steps) + " | fitted order |"
    lines = [head, "|---|" + "---:|" * (len(steps) + 1)]
    for row in rows:
        cells = [_error_cell(row, h) for h in steps]
        order = "–" if row["order"] is None else f"{row['order']:.3f}"
        lines.append(f"| {row['embedding']} | " + " | ".join(cells) + f" | {order} |")
    return "\n".join(lines) + "\n"


TIMING_FIELDS = ["wall_seconds", "real_time_factor", "newton_mean", "newton_max", "line_search_steps", "steps"]



def write_timing_csv(path, scenario, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["scenario", "embedding", "dt"] + TIMING_FIELDS + ["speedup_vs_full", "certified"])
        for row in rows:
            run = row["run"]
            w.writerow([scenario, row["embedding"], _raw(row["dt"])] +
                       [_raw(getattr(run, k)) for k in TIMING_FIELDS] + [_raw(row["speedup_vs_full"]), run.certified])


def timing_markdown(rows):
    lines = ["| method | h [s] | wall [s] | real-time factor | Newton its/step (mean) | (max) | speed-up vs full "
             "| certified |", "|---|---:|---:|---:|---:|---:|---:|---|"]
    for row in rows:
        run = row["run"]
        ratio = "–" if row["speedup_vs_full"] is None else f"{row['speedup_vs_full']:.2f}×"
        newton_max = "–" if run.newton_max is None else f"{run.newton_max:g}"
        lines.append(f"| {row['embedding']} | {format_step(row['dt'])} | {_sig(run.wall_seconds)} | "
                     f"{_sig(run.real_time_factor)} | {_sig(run.newton_mean)} | {newton_max} | {ratio} | "
                     f"{run.certified or '–'} |")
    return "\n".join(lines) + "\n"
