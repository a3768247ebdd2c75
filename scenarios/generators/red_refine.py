"""Red refinement of a tet mesh: every tet split 1:8, repeated LEVELS times.

    red_refine.py INPUT.vtk|INPUT.msh OUTPUT.msh LEVELS

A new vertex at the midpoint of every edge; each tet becomes its 4 corner tets and 4
tets of the inner octahedron, cut along the octahedron's shortest diagonal (the
shortest-interior-diagonal rule: a diagonal is a segment between midpoints of opposite
edges; ties go to the first of (m01, m23), (m02, m13), (m03, m12)). Surface and interior
are refined together, and a boundary triangle is split into four at its edge midpoints,
so the refined surface is level 0's triangles, piecewise flat at level 0's resolution:
a curved body keeps level 0's geometry at every level (self-similar refinement, what a
Richardson extrapolation needs). Each child's volume is 1/8 of its parent's (up to the
midpoints' rounding); the shortest-diagonal choice keeps the family non-degenerate
(Korotov and Krizek 2001; results/locking_richardson.md gives the radius ratios).
Deterministic: numpy's unique sorts the edges. Writes Gmsh 2.2 (tets only, positively
oriented) and prints meshtools.tet_mesh_report as JSON.
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import meshtools  # noqa: E402

EDGES = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]  # midpoint k of tet edge EDGES[k]
# Octahedron vertices as indices into (corners 0-3, midpoints 4-9): m01=4 m02=5 m03=6 m12=7 m13=8 m23=9.
CORNERS = [(0, 4, 5, 6), (4, 1, 7, 8), (5, 7, 2, 9), (6, 8, 9, 3)]
# Per diagonal (a, b): the other four midpoints as a cycle of octahedron edges.
DIAGONALS = [((4, 9), (5, 6, 8, 7)), ((5, 8), (4, 6, 9, 7)), ((6, 7), (4, 5, 9, 8))]


def refine_once(V, T):
    """One red refinement: (V', T', parent) with parent[i] the input tet child i came from."""
    E = np.sort(T[:, EDGES].reshape(-1, 2), axis=1)
    edges, inverse = np.unique(E, axis=0, return_inverse=True)
    mid = len(V) + inverse.reshape(len(T), 6)
    V2 = np.concatenate([V, 0.5 * (V[edges[:, 0]] + V[edges[:, 1]])])
    L = np.concatenate([T, mid], axis=1)  # local index 0..9 -> global vertex
    length = np.stack([np.linalg.norm(V2[L[:, a]] - V2[L[:, b]], axis=1) for (a, b), _ in DIAGONALS], axis=1)
    choice = np.argmin(length, axis=1)
    children = [L[:, list(c)] for c in CORNERS]
    for d, ((a, b), ring) in enumerate(DIAGONALS):
        for k in range(4):
            local = [a, b, ring[k], ring[(k + 1) % 4]]
            children.append(np.where((choice == d)[:, None], L[:, local], -1))
    # Every parent has 4 corners and, for its chosen diagonal, 4 octahedron tets.
    C = np.stack(children, axis=1)  # (m, 16, 4), unchosen diagonals' rows are -1
    keep = C[:, :, 0] >= 0
    T2 = C[keep]
    parent = np.repeat(np.arange(len(T)), 8)
    return V2, meshtools.orient_positive(V2, T2), parent


def refine(V, T, levels):
    for _ in range(levels):
        V, T, _ = refine_once(V, T)
    return V, T


def read_tets(path):
    if path.endswith(".vtk"):
        import subdivided_tetgen
        V, T = subdivided_tetgen.read_vtk_tets(path)
    else:
        V, T = meshtools.read_msh22(path)
    return V, meshtools.orient_positive(V, T)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    V, T = read_tets(sys.argv[1])
    V, T = refine(V, T, int(sys.argv[3]))
    meshtools.write_msh22(sys.argv[2], V, T)
    print(json.dumps(meshtools.tet_mesh_report(V, T), indent=1))


if __name__ == "__main__":
    main()
