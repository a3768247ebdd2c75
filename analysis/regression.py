#!/usr/bin/python3
"""Accuracy and speed regression check on a sweep's runs.csv (issue 7).

    regression.py RUNS.csv BASELINE.json                 # check, exit 1 on regression
    regression.py RUNS.csv BASELINE.json --update "why"  # rewrite the baseline

The baseline holds, per (embedding, dt), the error E(h) against the committed
reference, and the speed ratio wall(full) / wall(each embedding) at each dt. A
check fails when
  - a run did not complete or is not certified intersection-free,
  - E grows beyond (1 + error_tolerance) times its baseline (or a baseline run is missing),
  - the fitted convergence order (least-squares slope of log E vs log h) of an
    embedding leaves [order_min, order_max],
  - a speed ratio falls below (1 - speed_tolerance) times its baseline.
Speed ratios are measured in the same sweep, so the machine's speed cancels.
"""
import csv
import datetime
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from eipc_report.fit import fitted_order  # noqa: E402  (the report's own fit)

DEFAULTS = {"error_tolerance": 0.05, "speed_tolerance": 0.35, "order_min": 0.85, "order_max": 1.2}  # issue 20: first order, 0.85-1.2


def read_runs(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"error: {path}: no runs")
    return rows


def measure(rows):
    """Errors, speed ratios vs full, orders and problems found in the runs themselves."""
    problems, errors, walls = [], {}, {}
    for r in rows:
        key = f"{r['embedding']}@{float(r['dt']):g}"
        if r["status"] != "complete":
            problems.append(f"{key}: run {r['status']} (exit {r['exit_code']})")
        if r["certified"] != "yes":
            problems.append(f"{key}: certified = '{r['certified']}'")
        if r["error"] == "":
            problems.append(f"{key}: no error against a reference")
        else:
            errors[key] = float(r["error"])
        walls[(r["embedding"], float(r["dt"]))] = float(r["wall_seconds"])
    speed = {f"{e}@{dt:g}": walls[("full", dt)] / w
             for (e, dt), w in walls.items() if e != "full" and ("full", dt) in walls and w > 0}
    orders = {}
    for e in sorted({r["embedding"] for r in rows}):
        pts = [(float(k.split("@")[1]), v) for k, v in errors.items() if k.split("@")[0] == e]
        orders[e] = fitted_order([h for h, _ in pts], [v for _, v in pts])
    return problems, errors, speed, orders


def compare(measured, baseline):
    problems, errors, speed, orders = measured
    tol = {k: baseline.get(k, v) for k, v in DEFAULTS.items()}
    lines = [f"{'quantity':<24}{'baseline':>12}{'measured':>12}  verdict"]
    for key, base in sorted(baseline["error"].items()):
        got = errors.get(key)
        ok = got is not None and got <= base * (1 + tol["error_tolerance"])
        lines.append(f"{'E ' + key:<24}{base:>12.4e}{(got if got is not None else float('nan')):>12.4e}  {'ok' if ok else 'REGRESSED'}")
        if not ok:
            problems.append(f"E {key}: {got} vs baseline {base} (tolerance {tol['error_tolerance']:.0%})")
    for e, order in sorted(orders.items()):
        ok = order is not None and tol["order_min"] <= order <= tol["order_max"]
        lines.append(f"{'order ' + e:<24}{'':>12}{(order if order is not None else float('nan')):>12.3f}  {'ok' if ok else 'OUT OF RANGE'}")
        if not ok:
            problems.append(f"order {e}: {order} outside [{tol['order_min']}, {tol['order_max']}]")
    for key, base in sorted(baseline["speed_ratio"].items()):
        got = speed.get(key)
        ok = got is not None and got >= base * (1 - tol["speed_tolerance"])
        lines.append(f"{'speed full/' + key:<24}{base:>12.3f}{(got if got is not None else float('nan')):>12.3f}  {'ok' if ok else 'SLOWER'}")
        if not ok:
            problems.append(f"speed ratio full/{key}: {got} vs baseline {base} (tolerance {tol['speed_tolerance']:.0%})")
    return lines, problems


def main():
    args = sys.argv[1:]
    if len(args) not in (2, 4) or (len(args) == 4 and args[2] != "--update"):
        sys.exit(__doc__)
    runs_csv, baseline_path = args[0], args[1]
    measured = measure(read_runs(runs_csv))
    if len(args) == 4:
        problems, errors, speed, orders = measured
        if problems:
            sys.exit("error: refusing to write a baseline from failing runs:\n  " + "\n  ".join(problems))
        baseline = dict(DEFAULTS, error=errors, speed_ratio=speed, orders=orders,
                        updated=datetime.date.today().isoformat(), reason=args[3], source=runs_csv)
        with open(baseline_path, "w") as f:
            json.dump(baseline, f, indent=2, sort_keys=True)
            f.write("\n")
        print(f"baseline written to {baseline_path}: {args[3]}")
        return
    with open(baseline_path) as f:
        baseline = json.load(f)
    lines, problems = compare(measured, baseline)
    print("\n".join(lines))
    if problems:
        print("\nREGRESSION:\n  " + "\n  ".join(problems))
        sys.exit(1)
    print("\nno regression")


if __name__ == "__main__":
    main()
