#!/usr/bin/python3
"""Prints the teddy's converged hold force (N): the finest complete level of
results/locking_reference.csv (scenarios/locking/reference_series.py), the reference
that `eipc report --force-reference` compares every method with.

    scenarios/locking/converged_force.py [--nodes]     (--nodes: print that level's node count too)
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


if __name__ == "__main__":
    force, nodes = converged_force()
    print(f"{force!r} {nodes}" if "--nodes" in sys.argv[1:] else repr(force))
