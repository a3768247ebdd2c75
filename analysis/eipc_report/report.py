"""Putting it together: runs.csv + trajectories -> tables, figures and report.md in the output dir."""
import math
import os

from . import hold_force
from .errors import InputError
from .markdown import report_markdown
from .methods import format_step, method_order, time_steps
from .runs import read_runs, trajectory_path
from .series_csv import write_pair_series_csv
from .tables import convergence, timing, write_convergence_csv, write_timing_csv
from .trajectory import most_touching_pair, read_pair_series, start_gap


def _select_scenario(runs, wanted, csv_path):
    names = sorted({r.scenario for r in runs})
    if wanted is None:
        if len(names) > 1:
            raise InputError(f"{csv_path}: field 'scenario': several scenarios ({', '.join(names)}); "
                             f"choose one with --scenario")
        wanted = names[0]
    elif wanted not in names:
        raise InputError(f"--scenario: no runs of '{wanted}' in {csv_path} (have {', '.join(names)})")
    return wanted, [r for r in runs if r.scenario == wanted]


def _force_step(runs, wanted):
    """The h of the time-series plots: --dt, else the one most methods finished (smallest on ties)."""
    finished = [r for r in runs if r.ok and r.trajectory]
    if wanted is not None:
        for h in time_steps(runs):
            if math.isclose(h, wanted, rel_tol=1e-9):
                return h
        have = ", ".join(format_step(h) for h in time_steps(runs))
        raise InputError(f"--dt {wanted:g}: no run with this time step (have {have})")
    if not finished:
        return None
    return min(time_steps(finished), key=lambda h: (-sum(r.dt == h for r in finished), h))


def _read_series(directory, runs, methods, pair, force_dt, notes):
    """{method: PairSeries} of the finished runs at force_dt."""
    series = {}
    for m in methods:
        run = next((r for r in runs if r.ok and r.embedding == m and r.dt == force_dt), None)
        if run is None:
            continue
        s = read_pair_series(trajectory_path(directory, run), *pair)
        series[m] = s
        if s.status != "complete":
            notes.append(f"{m}, h = {format_step(force_dt)} s: trajectory is {s.status}.")
        if not s.pair_count.any():
            notes.append(f"{m}, h = {format_step(force_dt)} s: {pair[0]} and {pair[1]} never touch.")
    if not series:
        raise InputError(f"--dt {force_dt:g}: no finished run with this time step")
    return series


def _default_pair(directory, runs, force_dt, notes):
    """Without --pair: the body pair in most contact in the first finished run at force_dt."""
    run = next(r for r in runs if r.ok and r.trajectory and r.dt == force_dt)
    pair = most_touching_pair(trajectory_path(directory, run))
    if pair is None:
        notes.append(f"No bodies touch in {run.trajectory}: no force plot (choose a pair with --pair A,B).")
    else:
        notes.append(f"Forces of {pair[0]} and {pair[1]}: the pair in most contact in {run.trajectory} "
                     f"(choose another with --pair A,B).")
    return pair


def _hold_rows(directory, runs, series, pair, force_dt, hold, conv, tim):
    """hold = (window, axis, reference): the hold-force table's rows (hold_force.py)."""
    if pair is None:
        raise InputError("--hold: no body pair touches; choose one with --pair A,B")
    window, axis, reference = hold
    nodes = {m: hold_force.body_nodes(trajectory_path(directory, r), pair[1]) for m in series
             for r in runs if r.ok and r.embedding == m and r.dt == force_dt}
    return hold_force.hold_rows(series, nodes, window, axis, reference, conv, tim)


# Orders this far from 1 (first order, the scheme's) get a note on where E(h) comes from;
# a frame with more than this share of E(h)^2 in the first two steps is an early one.
ORDER_NOTE_DISTANCE = 0.5
EARLY_SHARE = 0.25


def dominant_frame_notes(directory, conv, runs):
    """For each method whose fitted order is far from 1: at each h, the frame with the
    largest error and its share of E(h)^2, and what the start tells: bodies that start
    within d̂ (frame 0 of the smallest h's run) are pushed apart by the barrier at once."""
    notes = []
    table = {(r.embedding, r.dt): r for r in runs if r.ok}
    for row in conv:
        order = row["order"]
        if order is None or abs(order - 1) <= ORDER_NOTE_DISTANCE:
            continue
        parts, early, start = [], False, None
        for h in sorted(row["errors"]):
            run = table.get((row["embedding"], h))
            if run is None or run.worst_frame_share is None:
                continue
            parts.append(f"h = {format_step(h)} s: t = {run.worst_frame_time:g} s, "
                         f"{100 * run.worst_frame_share:.0f}%")
            early = early or (run.worst_frame_share > EARLY_SHARE and run.worst_frame_time <= 2 * h + 1e-12)
            if start is None and run.trajectory:
                start = start_gap(trajectory_path(directory, run))
        if not parts:
            continue
        text = (f"{row['embedding']}: fitted order {order:.3f} is far from 1. The frame with the largest error "
                f"and its share of E(h)²: " + "; ".join(parts) + ".")
        if start is not None and start[0] < start[1]:
            text += (f" At t = 0 the closest pair of surfaces (or a vertex and the ground) is {start[0]:.3g} m "
                     f"apart, within d̂ = {start[1]:.3g} m: the barrier pushes them apart in the first steps, a jump "
                     f"no h resolves (eipc run warns of it; docs/error-metric.md, \"A start inside d̂\").")
        elif early:
            cause = "nothing starts within d̂, so" if start is not None else "if nothing starts within d̂,"
            text += (f" The first frames (t ≤ 2h) carry much of it; {cause} look at what happens then (an impact, "
                     f"a motion that starts abruptly).")
        notes.append(text)
    return notes


def make_report(directory, out_dir, pair, wanted_dt, wanted_scenario, command, hold=None):
    # Everything is read and checked before anything is written (bad input leaves no partial output).
    csv_path = os.path.join(directory, "runs.csv")
    scenario, runs = _select_scenario(read_runs(directory), wanted_scenario, csv_path)
    if not any(r.ok for r in runs):
        raise InputError(f"{csv_path}: field 'exit_code': no run of '{scenario}' finished (exit code 0)")
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise InputError(f"--out: {out_dir} exists and is not a directory")
    methods = method_order(runs)
    notes = []
    conv, tim = convergence(runs), timing(runs)
    for row in conv:
        if row["order"] is None:
            notes.append(f"{row['embedding']}: fewer than two time steps with an error; no order fitted.")
    dominant = dominant_frame_notes(directory, conv, runs)
    notes += dominant
    force_dt = _force_step(runs, wanted_dt)
    if pair is None and force_dt is not None:
        pair = _default_pair(directory, runs, force_dt, notes)
    series = _read_series(directory, runs, methods, pair, force_dt, notes) if pair and force_dt is not None else {}
    held = _hold_rows(directory, runs, series, pair, force_dt, hold, conv, tim) if hold else None

    from . import plots, style  # matplotlib is slow to import: only once the input is known good
    os.makedirs(out_dir, exist_ok=True)
    style.apply()
    styles = {m: style.method_style(i) for i, m in enumerate(methods)}
    files = ["report.md", "convergence.csv", "timing.csv"]
    write_convergence_csv(os.path.join(out_dir, "convergence.csv"), scenario, conv)
    write_timing_csv(os.path.join(out_dir, "timing.csv"), scenario, tim)
    if series:
        files.append("contact_forces.csv")
        write_pair_series_csv(os.path.join(out_dir, "contact_forces.csv"), series, pair)
        files += plots.forces(series, styles, pair, force_dt, out_dir)
        files += plots.contact_pairs(series, styles, pair, force_dt, out_dir)
    files += plots.error_vs_dt(conv, styles, out_dir)
    files += plots.wall_vs_dt(tim, styles, out_dir)
    files += plots.error_vs_wall(conv, tim, styles, out_dir)
    hold_text = None
    if held:
        files.append("hold_force.csv")
        hold_force.write_csv(os.path.join(out_dir, "hold_force.csv"), held, hold[2])
        hold_text = hold_force.markdown(held, hold[0], hold[1], pair, force_dt, hold[2])
        if hold[2] is not None:
            files += plots.force_error_vs_wall(held, styles, out_dir)

    skipped = [r for r in runs if not r.ok]
    text = report_markdown(scenario, command, conv, tim, time_steps(runs), pair, force_dt, skipped, notes,
                           hold_text, hold is not None and hold[2] is not None)
    with open(os.path.join(out_dir, "report.md"), "w", encoding="utf-8") as f:
        f.write(text)
    print(f"report of {scenario} ({len(runs)} runs) written to {out_dir}: {', '.join(files)}")
    steps = ", ".join(format_step(h) for h in time_steps(runs))
    for row in conv:
        order = "–" if row["order"] is None else f"{row['order']:.3f}"
        print(f"  {row['embedding']}: fitted order {order} (least-squares slope of log E(h) over h = {steps} s; "
              f"1 is first order; report.md has the table)")
    for n in dominant:
        print(f"  {n}")
