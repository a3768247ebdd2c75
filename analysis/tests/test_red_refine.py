"""Checks of the red refinement (scenarios/generators/red_refine.py) on the teddy and the bubble:
`/usr/bin/python3 analysis/tests/test_red_refine.py` (ctest red_refine)."""
import os
import sys
import unittest

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "scenarios", "generators"))
sys.path.insert(0, os.path.join(ROOT, "scenarios", "locking"))
import meshtools  # noqa: E402
import red_refine  # noqa: E402
from richardson import richardson  # noqa: E402

MESHES = [os.path.join(ROOT, "scenarios", "assets", "drake", "teddy.vtk"),
          os.path.join(ROOT, "scenarios", "assets", "drake_models", "wsg_50_description", "bubble.vtk")]


def plane_distance(V, face, points):
    """Distances of points from the plane of the triangle V[face]."""
    a, b, c = V[face]
    n = np.cross(b - a, c - a)
    return np.abs((points - a) @ n) / np.linalg.norm(n)


class RedRefine(unittest.TestCase):
    def setUp(self):
        self.meshes = [red_refine.read_tets(p) for p in MESHES]

    def test_children_split_each_parent_volume_in_eight(self):
        for V, T in self.meshes:
            V2, T2, parent = red_refine.refine_once(V, T)
            self.assertEqual(len(T2), 8 * len(T))
            child = meshtools.signed_volumes(V2, T2)
            self.assertGreater(child.min(), 0)  # positively oriented
            parent_volume = meshtools.signed_volumes(V, T)
            np.testing.assert_allclose(child, parent_volume[parent] / 8, rtol=1e-9)
            summed = np.bincount(parent, weights=child)
            np.testing.assert_allclose(summed, parent_volume, rtol=1e-12)

    def test_surface_is_level_zero_triangles(self):
        # Every boundary vertex of level 1 and 2 lies in the plane of a level-0 boundary
        # triangle of its ancestor tet; new ones are midpoints of level-0 boundary edges (level 1).
        for V, T in self.meshes:
            F0 = meshtools.boundary_faces(T)
            V1, T1, parent1 = red_refine.refine_once(V, T)
            F1 = meshtools.boundary_faces(T1)
            self.assertEqual(len(F1), 4 * len(F0))
            edges0 = np.unique(np.sort(np.concatenate([F0[:, [0, 1]], F0[:, [1, 2]], F0[:, [2, 0]]]), axis=1), axis=0)
            expected = np.concatenate([V[np.unique(F0)], 0.5 * (V[edges0[:, 0]] + V[edges0[:, 1]])])
            got = V1[np.unique(F1)]
            self.assertEqual(len(got), len(expected))
            key = lambda X: X[np.lexsort(X.T[::-1])]  # noqa: E731
            np.testing.assert_array_equal(key(got), key(expected))
            V2, T2, parent2 = red_refine.refine_once(V1, T1)
            F2 = meshtools.boundary_faces(T2)
            self.assertEqual(len(F2), 16 * len(F0))
            ancestor = parent1[parent2]
            face_of_tet = {}
            for f in F0:
                for t in np.nonzero(np.isin(T, f).sum(axis=1) == 3)[0]:
                    face_of_tet.setdefault(t, []).append(f)
            # A level-2 boundary face of the tet descended from t lies on one of t's boundary faces.
            child_of_face = {tuple(sorted(f)): k for k, f in enumerate(np.sort(np.concatenate(
                [T2[:, [0, 2, 1]], T2[:, [0, 1, 3]], T2[:, [0, 3, 2]], T2[:, [1, 2, 3]]]), axis=1).tolist())}
            scale = np.ptp(V, axis=0).max()
            for f in F2:
                t = ancestor[child_of_face[tuple(sorted(f))] % len(T2)]
                d = min(plane_distance(V, f0, V2[f]).max() for f0 in face_of_tet[t])
                self.assertLess(d, 1e-12 * scale)
            vol = lambda V_, F_: meshtools.enclosed_volume(V_, F_)  # noqa: E731
            self.assertAlmostEqual(vol(V2, F2) / vol(V, F0), 1.0, places=12)

    def test_quality_settles_after_the_first_split(self):
        # Measured on these meshes: the first split at most halves the worst radius ratio
        # (teddy 0.081 -> 0.079, bubble 0.132 -> 0.068), the next leaves it unchanged.
        for V, T in self.meshes:
            q = [meshtools.radius_ratio(*red_refine.refine(V, T, k)).min() for k in range(3)]
            self.assertGreater(q[1], 0.5 * q[0])
            self.assertGreaterEqual(q[2], q[1] * (1 - 1e-9))

    def test_a_single_tet_cuts_its_shortest_diagonal(self):
        V = np.array([[0, 0, 0], [2, 0, 0], [0, 1, 0], [1, 1, 1]], dtype=float)  # diagonals^2 6/4, 10/4, 2/4
        V2, T2, _ = red_refine.refine_once(V, np.array([[0, 1, 2, 3]]))
        inner = T2[4:]  # the octahedron's tets all share the chosen diagonal
        shared = set(inner[0]).intersection(*map(set, inner[1:]))
        self.assertEqual(len(shared), 2)
        a, b = sorted(shared)
        lengths = [np.linalg.norm(V2[i] - V2[j]) for i, j in [(4, 9), (5, 8), (6, 7)]]
        self.assertEqual((a, b), (6, 7))  # m03, m12
        self.assertAlmostEqual(np.linalg.norm(V2[a] - V2[b]), min(lengths), places=15)


class Richardson(unittest.TestCase):
    def test_power_law_gives_its_order_and_limit(self):
        for p in (1.0, 1.5, 2.0):
            f = [-9.0 + 3.0 * 2.0 ** (-p * k) for k in range(3)]
            fit = richardson(*f)
            self.assertAlmostEqual(fit["order"], p, places=10)
            self.assertAlmostEqual(fit["limit"], -9.0, places=10)

    def test_alternating_changes_have_no_order(self):
        self.assertIsNone(richardson(-10.0, -9.0, -9.5))


if __name__ == "__main__":
    unittest.main()
