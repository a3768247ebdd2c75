"""Tetrahedralise a closed OBJ surface with TetGen without touching its surface.

    plate_tetgen.py INPUT.obj WORKDIR OUTPUT.msh [TETGEN_SWITCHES]

Writes WORKDIR/surface.smesh (the OBJ's vertices in file order, its triangles), runs
`tetgen -<switches>Q surface.smesh` (default SWITCHES "pYq1.4": -p tetrahedralise the
piecewise linear complex, -Y no Steiner points on the boundary, -q1.4 radius-edge ratio
bound for the interior; Q = quiet), then checks that
  * the first n output nodes are the n input vertices, bit for bit;
  * the boundary faces of the tets are exactly the input triangles (same vertex triples,
    outward orientation), so no surface vertex was moved or added;
and writes OUTPUT.msh (Gmsh 2.2, tets only, positively oriented). Prints a JSON report.
"""
import json
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import meshtools  # noqa: E402

SWITCHES = "pYq1.4"


def read_obj(path):
    V, F = [], []
    with open(path) as f:
        for line in f:
            p = line.split()
            if not p:
                continue
            if p[0] == "v":
                V.append([float(s) for s in p[1:4]])
            elif p[0] == "f":
                idx = [int(s.split("/")[0]) for s in p[1:]]
                idx = [i - 1 if i > 0 else len(V) + i for i in idx]
                for j in range(1, len(idx) - 1):  # fan (c0, cj, cj+1), as the project's reader
                    F.append([idx[0], idx[j], idx[j + 1]])
    return np.array(V), np.array(F, dtype=np.int64)


def write_smesh(path, V, F):
    out = [f"{len(V)} 3 0 0"]
    out += [f"{k} {x!r} {y!r} {z!r}" for k, (x, y, z) in enumerate(V.tolist())]
    out += [f"{len(F)} 0"]
    out += [f"3 {a} {b} {c}" for a, b, c in F.tolist()]
    out += ["0", "0", ""]  # no holes, no regions
    with open(path, "w") as f:
        f.write("\n".join(out))


def read_tetgen(stem):
    with open(stem + ".node") as f:
        rows = [l.split("#")[0].split() for l in f]
    rows = [r for r in rows if r]
    n, first = int(rows[0][0]), int(rows[1][0])
    V = np.array([[float(s) for s in r[1:4]] for r in rows[1:1 + n]])
    with open(stem + ".ele") as f:
        rows = [l.split("#")[0].split() for l in f]
    rows = [r for r in rows if r]
    m = int(rows[0][0])
    T = np.array([[int(s) - first for s in r[1:5]] for r in rows[1:1 + m]], dtype=np.int64)
    return V, T


def canonical(F):
    """Each triangle rotated so its smallest index comes first (keeps orientation)."""
    F = np.asarray(F)
    k = np.argmin(F, axis=1)
    return {tuple(np.roll(f, -s).tolist()) for f, s in zip(F, k)}


def main():
    src, work, dst = sys.argv[1:4]
    switches = sys.argv[4] if len(sys.argv) > 4 else SWITCHES
    os.makedirs(work, exist_ok=True)
    V0, F0 = read_obj(src)
    meshtools.check_closed(F0, src)
    smesh = os.path.join(work, "surface.smesh")
    write_smesh(smesh, V0, F0)
    subprocess.run(["tetgen", "-" + switches + "Q", smesh], check=True)
    V, T = read_tetgen(os.path.join(work, "surface.1"))
    T = meshtools.orient_positive(V, T)
    n = len(V0)
    if len(V) < n or not np.array_equal(V[:n], V0):
        sys.exit(f"{dst}: TetGen changed the input vertices")
    V, T = meshtools.drop_unused(V, T)  # TetGen keeps every input vertex; fails below if not
    F = meshtools.boundary_faces(T)
    if len(V) < n or not np.array_equal(V[:n], V0):
        sys.exit(f"{dst}: an input vertex is used by no tet")
    if len(F) != len(F0) or canonical(F) != canonical(F0):
        sys.exit(f"{dst}: the tet boundary is not the input surface ({len(F)} vs {len(F0)} triangles)")
    if np.unique(F).max() >= n:
        sys.exit(f"{dst}: a Steiner point lies on the boundary")
    meshtools.write_msh22(dst, V, T)
    report = meshtools.tet_mesh_report(V, T)
    report["surface_volume"] = meshtools.enclosed_volume(V0, F0)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
