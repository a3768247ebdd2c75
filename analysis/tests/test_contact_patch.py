"""Checks of the contact-patch selection (scenarios/locking/contact_patch.py):
`/usr/bin/python3 analysis/tests/test_contact_patch.py` (ctest contact_patch_selection)."""
import os
import sys
import unittest

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "scenarios", "locking"))
from contact_patch import point_triangle_distances  # noqa: E402


def sampled_distances(points, a, b, c, n=100):
    """Distances to a dense barycentric sampling of each triangle (an upper bound, within
    the sampling's spacing of the true distance)."""
    s, t = np.meshgrid(np.linspace(0, 1, n + 1), np.linspace(0, 1, n + 1))
    keep = s + t <= 1
    s, t = s[keep], t[keep]
    out = np.empty((len(points), len(a)))
    for j in range(len(a)):
        samples = a[j] + np.outer(s, b[j] - a[j]) + np.outer(t, c[j] - a[j])
        out[:, j] = np.linalg.norm(points[:, None, :] - samples[None], axis=-1).min(axis=1)
    return out


class PointTriangleDistance(unittest.TestCase):
    def test_every_voronoi_region_against_sampling(self):
        rng = np.random.default_rng(3)
        a, b, c = rng.normal(size=(3, 6, 3))
        points = 2.0 * rng.normal(size=(120, 3))  # near and far: all seven regions occur
        exact = point_triangle_distances(points, a, b, c)
        sampled = sampled_distances(points, a, b, c)
        longest = max(np.linalg.norm(b - a, axis=1).max(), np.linalg.norm(c - a, axis=1).max())
        self.assertTrue(np.all(exact <= sampled + 1e-12))  # never farther than a point of the triangle
        self.assertTrue(np.all(sampled - exact <= longest / 100))  # and not nearer than the triangle

    def test_known_distances(self):
        a, b, c = np.array([[0.0, 0, 0]]), np.array([[1.0, 0, 0]]), np.array([[0.0, 1, 0]])
        points = np.array([[0.2, 0.2, 0.5], [-1.0, -1, 0], [2.0, 0, 0], [0.5, -2, 0], [1.0, 1, 0]])
        expected = [0.5, np.sqrt(2), 1.0, 2.0, np.sqrt(2) / 2]
        np.testing.assert_allclose(point_triangle_distances(points, a, b, c)[:, 0], expected, rtol=1e-14)


if __name__ == "__main__":
    unittest.main()
