"""Compares two sweep directories bit for bit where the results are deterministic.

    compare_sweeps.py DIR_A DIR_B [REF_A REF_B]

runs.csv: every column but wall_seconds and real_time_factor (wall-clock measurements).
Trajectories (every *.h5 in DIR_A, and in REF_A): every dataset and every attribute,
byte for byte, but /frames/wall_seconds (the wall time of each step). Exits 1 on the
first difference, naming file and path.
"""
import csv
import os
import sys

import h5py
import numpy as np

WALL_COLUMNS = {"wall_seconds", "real_time_factor"}
WALL_DATASETS = {"/frames/wall_seconds"}


def fail(msg):
    print("DIFFERENT:", msg)
    sys.exit(1)


def runs_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return [{k: v for k, v in row.items() if k not in WALL_COLUMNS} for row in rows]


def same_value(a, b):
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        if a.dtype != b.dtype or a.shape != b.shape:
            return False
        # Variable-length strings come back as Python objects: compare them, not their addresses.
        return a.tolist() == b.tolist() if a.dtype.kind == "O" else a.tobytes() == b.tobytes()
    return type(a) == type(b) and a == b


def compare_h5(a_path, b_path):
    with h5py.File(a_path, "r") as a, h5py.File(b_path, "r") as b:
        names_a, names_b = [], []
        a.visit(names_a.append)
        b.visit(names_b.append)
        if sorted(names_a) != sorted(names_b):
            fail(f"{b_path}: other groups/datasets: {sorted(set(names_a) ^ set(names_b))}")
        compared = 0
        for name in [""] + names_a:
            obj_a, obj_b = (a[name], b[name]) if name else (a, b)
            if sorted(obj_a.attrs) != sorted(obj_b.attrs):
                fail(f"{b_path}:/{name}: other attributes")
            for key in obj_a.attrs:
                if not same_value(obj_a.attrs[key], obj_b.attrs[key]):
                    fail(f"{b_path}:/{name}: attribute {key} differs")
            if isinstance(obj_a, h5py.Dataset) and "/" + name not in WALL_DATASETS:
                if not same_value(obj_a[()], obj_b[()]):
                    fail(f"{b_path}:/{name} differs")
                compared += 1
        return compared


def main():
    if len(sys.argv) not in (3, 5):
        sys.exit(__doc__)
    dir_a, dir_b = sys.argv[1], sys.argv[2]
    rows_a, rows_b = runs_csv(os.path.join(dir_a, "runs.csv")), runs_csv(os.path.join(dir_b, "runs.csv"))
    if not rows_a:
        fail(f"{dir_a}/runs.csv has no runs")
    if rows_a != rows_b:
        fail(f"runs.csv:\n{rows_a}\n{rows_b}")
    print(f"runs.csv: {len(rows_a)} rows equal (without {', '.join(sorted(WALL_COLUMNS))})")
    pairs = [(dir_a, dir_b)] + ([(sys.argv[3], sys.argv[4])] if len(sys.argv) == 5 else [])
    for a_dir, b_dir in pairs:
        files = sorted(f for f in os.listdir(a_dir) if f.endswith(".h5"))
        if not files:
            fail(f"{a_dir}: no trajectories")
        for f in files:
            n = compare_h5(os.path.join(a_dir, f), os.path.join(b_dir, f))
            print(f"{os.path.join(b_dir, f)}: {n} datasets and all attributes equal")


if __name__ == "__main__":
    main()
