"""analysis/drape_statistics.py's statistics on made-up heights: folds in other places (the same
heights on other vertices) cost nothing, a lift of the whole cloth costs its height in both."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numpy as np  # noqa: E402

from drape_statistics import errors  # noqa: E402


class DrapeStatistics(unittest.TestCase):
    def setUp(self):
        self.ref = np.random.default_rng(1).uniform(0.0, 0.3, 500)

    def test_the_same_heights_on_other_vertices_are_no_error(self):
        moved = np.random.default_rng(2).permutation(self.ref)
        centroid, profile = errors([moved], [self.ref])
        self.assertLess(centroid[0], 1e-15)
        self.assertLess(profile[0], 1e-15)
        self.assertGreater(np.sqrt(np.mean((moved - self.ref) ** 2)), 0.05)  # a trajectory norm would see it

    def test_a_lift_of_the_whole_cloth_is_its_height(self):
        centroid, profile = errors([self.ref + 0.002, self.ref], [self.ref, self.ref])
        self.assertAlmostEqual(centroid[0], 0.002, places=12)
        self.assertAlmostEqual(profile[0], 0.002, places=12)
        self.assertEqual(centroid[1], 0.0)

    def test_a_flatter_cloth_with_the_same_mean_shows_in_the_profile_only(self):
        flatter = self.ref.mean() + 0.5 * (self.ref - self.ref.mean())
        centroid, profile = errors([flatter], [self.ref])
        self.assertLess(centroid[0], 1e-15)
        self.assertGreater(profile[0], 0.02)


if __name__ == "__main__":
    unittest.main()
