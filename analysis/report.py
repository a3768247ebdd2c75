#!/usr/bin/python3
"""Tables and plots of an `eipc sweep` directory: `eipc report DIR` runs this script.

usage: report.py DIR [--out DIR/report] [--pair A,B] [--dt H] [--scenario NAME] [--command TEXT]
                 [--hold T0,T1 [--hold-axis x|y|z] [--force-reference N]]
Exit codes: 0 success, 2 bad input (the message names the file, field and problem).
Runs with Debian's /usr/bin/python3 (matplotlib, numpy, h5py). See docs/report.md.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from eipc_report.errors import InputError  # noqa: E402


def parse_args(argv):
    p = argparse.ArgumentParser(prog="report.py", description=__doc__.splitlines()[0])
    p.add_argument("dir", help="sweep directory holding runs.csv")
    p.add_argument("--out", help="output directory (created if missing; default DIR/report)")
    p.add_argument("--pair", help="A,B: plot contact forces on body A from body B "
                                  "(default: the pair in most contact)")
    p.add_argument("--dt", type=float, help="time step of the force and contact-pair plots")
    p.add_argument("--scenario", help="scenario to report when runs.csv holds several")
    p.add_argument("--command", help="command line quoted in report.md")
    p.add_argument("--hold", help="T0,T1: tabulate each method's mean force on A from B over this window "
                                  "(hold_force.csv)")
    p.add_argument("--hold-axis", choices=["x", "y", "z"], default="x", help="force component of --hold")
    p.add_argument("--force-reference", type=float,
                   help="converged hold force (N): each method's force error against it, and its plot")
    return p.parse_args(argv)


def parse_pair(text):
    names = [n.strip() for n in text.split(",")]
    if len(names) != 2 or not all(names) or names[0] == names[1]:
        raise InputError(f"--pair: '{text}' is not two different body names 'A,B'")
    return names


def main(argv):
    args = parse_args(argv)
    from eipc_report.report import make_report
    command = args.command or "analysis/report.py " + " ".join(argv)
    out = args.out or os.path.join(args.dir, "report")
    pair = parse_pair(args.pair) if args.pair else None
    if args.force_reference is not None and not args.hold:
        raise InputError("--force-reference needs --hold T0,T1")
    hold = None
    if args.hold:
        from eipc_report.hold_force import parse_hold
        hold = (parse_hold(args.hold), args.hold_axis, args.force_reference)
    make_report(args.dir, out, pair, args.dt, args.scenario, command, hold)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
