"""report.md: the tables, figure links and the command, ready to paste into results/README.md."""
from .methods import format_step
from .tables import convergence_markdown, timing_markdown


def _figure(title, stem, caption):
    return f"![{title}]({stem}.png)\n\n{caption} ([SVG]({stem}.svg))\n"


def report_markdown(scenario, command, convergence, timing, steps, pair, force_dt, skipped, notes, hold_text=None,
                    force_error_plot=False):
    out = [f"## {scenario}\n", f"Made by `{command}`.\n",
           "### Convergence\n",
           "E(h) is docs/design.md §7's time-averaged vertex error of each run against its own method's "
           "reference at h_ref; the fitted order is the least-squares slope of log E against log h "
           "(`convergence.csv`).\n", convergence_markdown(convergence, steps),
           "### Timing\n",
           "Wall-clock of the whole run; real-time factor = simulated time / wall time; Newton "
           "iterations per time step; speed-up = full-space wall time / this method's wall time at "
           "the same h (`timing.csv`).\n", timing_markdown(timing)]
    if hold_text:
        out += ["### Hold force\n", hold_text]
    out.append("### Figures\n")
    h = format_step(force_dt) if force_dt is not None else None
    if h is not None and pair:
        out.append(_figure("contact forces", "contact_forces",
                           f"Contact force (normal + friction, x/y/z) on {pair[0]} from {pair[1]}, "
                           f"all methods at h = {h} s (`contact_forces.csv` has normal and friction apart)."))
        out.append(_figure("contact pairs", "contact_pairs",
                           f"Contact primitive pairs over time at h = {h} s: all bodies, and between "
                           f"{pair[0]} and {pair[1]}."))
    out.append(_figure("E vs h", "error_vs_dt", "Error against time step (log-log); dashed: first order."))
    out.append(_figure("wall-clock vs h", "wall_vs_dt", "Wall-clock time against time step."))
    out.append(_figure("E vs wall-clock", "error_vs_wall", "Error against wall-clock time, one point per h."))
    if force_error_plot:
        out.append(_figure("hold force error vs wall-clock", "force_error_vs_wall",
                           "Each method's hold-force error against the converged reference, against its "
                           "wall-clock time: the accuracy a coarse embedding trades for speed."))
    if skipped:
        out.append("### Runs left out\n")
        out.append("\n".join(f"- {r.embedding}, h = {format_step(r.dt)} s: exit code {r.exit_code}"
                             f"{', status ' + r.status if r.status else ''}" for r in skipped) + "\n")
    if notes:
        out.append("### Notes\n")
        out.append("\n".join(f"- {n}" for n in notes) + "\n")
    return "\n".join(out)
