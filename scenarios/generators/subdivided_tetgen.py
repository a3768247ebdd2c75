"""Refine a tet mesh: subdivide its boundary surface, then tetrahedralise it anew with TetGen.

    subdivided_tetgen.py INPUT.vtk WORKDIR OUTPUT.msh LEVELS TETGEN_SWITCHES

Reads a legacy ASCII VTK tet mesh (e.g. Drake's teddy.vtk), takes its boundary
surface (outward triangles of the positively oriented tets), splits every triangle
LEVELS times into four at its edge midpoints (midpoint subdivision: every new vertex
lies on an input triangle, so the surface's geometry is the input's, up to rounding
of the midpoints), writes WORKDIR/surface.smesh and runs
`tetgen -<switches>Q surface.smesh` (e.g. "pYq1.4a1.2e-6": -Y no Steiner points on
the boundary, -q radius-edge ratio bound, -a maximum tet volume; the interior
vertices of the input are not used, TetGen makes new ones). Then checks, as
plate_tetgen.py does, that the first nodes are the subdivided surface's vertices bit
for bit and that the tets' boundary is exactly the subdivided surface, and writes
OUTPUT.msh (Gmsh 2.2, tets only, positively oriented). Prints a JSON report.
Deterministic: numpy's unique sorts the edges, TetGen has no randomness.
"""
import json
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import meshtools  # noqa: E402
import plate_tetgen  # noqa: E402  (smesh writer, TetGen reader, canonical triangle sets)

VTK_TETRA = 10


def read_vtk_tets(path):
    """Points and tetrahedra (cell type 10) of a legacy ASCII VTK unstructured grid."""
    with open(path) as f:
        tokens = f.read().split()
    i = tokens.index("POINTS")
    n = int(tokens[i + 1])
    V = np.array(tokens[i + 3:i + 3 + 3 * n], dtype=np.float64).reshape(n, 3)
    i = tokens.index("CELLS")
    m = int(tokens[i + 1])
    j, cells = i + 3, []
    for _ in range(m):
        k = int(tokens[j])
        cells.append([int(s) for s in tokens[j + 1:j + 1 + k]])
        j += k + 1
    i = tokens.index("CELL_TYPES")
    types = [int(s) for s in tokens[i + 2:i + 2 + m]]
    T = np.array([c for c, t in zip(cells, types) if t == VTK_TETRA], dtype=np.int64).reshape(-1, 4)
    return V, T


def boundary_surface(V, T):
    """Outward boundary triangles of a tet mesh, on its boundary vertices only (kept in file order)."""
    F = meshtools.boundary_faces(meshtools.orient_positive(V, T))
    used = np.zeros(len(V), dtype=bool)
    used[F.ravel()] = True
    new_index = np.cumsum(used) - 1
    return V[used], new_index[F]


def subdivide_midpoint(V, F):
    """Each triangle (a, b, c) -> four, with new vertices at the edge midpoints appended after V
    (in the order of the sorted unique edges); orientation kept."""
    E = np.sort(np.concatenate([F[:, [0, 1]], F[:, [1, 2]], F[:, [2, 0]]]), axis=1)
    edges, inverse = np.unique(E, axis=0, return_inverse=True)
    mid = len(V) + inverse.ravel().reshape(3, len(F)).T  # midpoint of (a,b), (b,c), (c,a) per face
    V = np.concatenate([V, 0.5 * (V[edges[:, 0]] + V[edges[:, 1]])])
    a, b, c = F.T
    ab, bc, ca = mid.T
    F = np.concatenate([np.stack(t, axis=1) for t in ((a, ab, ca), (ab, b, bc), (ca, bc, c), (ab, bc, ca))])
    return V, F


def main():
    if len(sys.argv) != 6:
        sys.exit("usage: subdivided_tetgen.py INPUT.vtk WORKDIR OUTPUT.msh LEVELS TETGEN_SWITCHES")
    src, work, dst, levels, switches = sys.argv[1:6]
    os.makedirs(work, exist_ok=True)
    V0, F0 = boundary_surface(*read_vtk_tets(src))
    meshtools.check_closed(F0, src)
    input_volume = meshtools.enclosed_volume(V0, F0)
    for _ in range(int(levels)):
        V0, F0 = subdivide_midpoint(V0, F0)
    meshtools.check_closed(F0, f"{src} subdivided")
    smesh = os.path.join(work, "surface.smesh")
    plate_tetgen.write_smesh(smesh, V0, F0)
    run = subprocess.run(["tetgen", "-" + switches + "Q", smesh], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{dst}: tetgen -{switches}Q failed ({run.returncode}):\n{run.stdout}{run.stderr}")
    V, T = plate_tetgen.read_tetgen(os.path.join(work, "surface.1"))
    T = meshtools.orient_positive(V, T)
    n = len(V0)
    if len(V) < n or not np.array_equal(V[:n], V0):
        sys.exit(f"{dst}: TetGen changed the surface vertices")
    V, T = meshtools.drop_unused(V, T)
    F = meshtools.boundary_faces(T)
    if len(V) < n or not np.array_equal(V[:n], V0):
        sys.exit(f"{dst}: a surface vertex is used by no tet")
    if len(F) != len(F0) or plate_tetgen.canonical(F) != plate_tetgen.canonical(F0):
        sys.exit(f"{dst}: the tet boundary is not the subdivided surface ({len(F)} vs {len(F0)} triangles)")
    meshtools.write_msh22(dst, V, T)
    report = meshtools.tet_mesh_report(V, T)
    report["input_surface_volume"] = input_volume
    report["surface_volume"] = meshtools.enclosed_volume(V0, F0)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
