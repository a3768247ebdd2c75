"""The peer search's ranking rule (analysis/peers_search.py: best_of) and its other small
decisions: `/usr/bin/python3 -m unittest discover -s analysis/tests`."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from peers_search import best_of, is_settings_file, label, performs  # noqa: E402


def cand(walls, intersecting=0, depth=0.0, lift=30.0):
    return dict(walls=walls, intersecting=intersecting, depth=depth, lift=lift)


class RankingRule(unittest.TestCase):
    def test_no_candidates(self):
        self.assertEqual(best_of([]), (None, []))

    def test_one_candidate_wins(self):
        self.assertEqual(best_of([cand([1.0, 1.1, 1.2], intersecting=99)]), (0, [0]))

    def test_clearly_faster_wins_whatever_its_quality(self):
        # Ranges [1.0, 1.2] and [1.5, 1.7] do not overlap: the faster wins with 398 frames intersecting.
        c = [cand([1.5, 1.6, 1.7], intersecting=0), cand([1.0, 1.1, 1.2], intersecting=398, depth=1.5)]
        self.assertEqual(best_of(c), (1, [1]))

    def test_overlapping_ranges_are_a_tie_won_by_fewer_intersecting_frames(self):
        # The teddy case: 5 ms without a margin is not faster beyond the noise than 5 ms with one.
        c = [cand([1.20, 1.22, 1.30], intersecting=398, depth=1.50, lift=246),
             cand([1.25, 1.27, 1.35], intersecting=9, depth=0.65, lift=248)]
        self.assertEqual(best_of(c), (1, [0, 1]))

    def test_touching_ranges_overlap(self):
        c = [cand([1.0, 1.1, 1.2], intersecting=5), cand([1.2, 1.3, 1.4], intersecting=0)]
        self.assertEqual(best_of(c), (1, [0, 1]))

    def test_tie_on_frames_goes_to_the_smaller_depth_then_the_larger_lift(self):
        c = [cand([1.0, 1.1, 1.2], intersecting=2, depth=0.2, lift=250),
             cand([1.0, 1.15, 1.2], intersecting=2, depth=0.1, lift=240)]
        self.assertEqual(best_of(c)[0], 1)
        c = [cand([1.0, 1.1, 1.2], lift=250), cand([1.0, 1.15, 1.2], lift=252)]
        self.assertEqual(best_of(c)[0], 1)

    def test_equal_quality_goes_to_the_smaller_median(self):
        c = [cand([1.0, 1.15, 1.2]), cand([1.0, 1.1, 1.2])]
        self.assertEqual(best_of(c)[0], 1)

    def test_only_ties_with_the_fastest_count(self):
        # 2 overlaps 1 but not 0 (the fastest): 2 is not tied, however good its outcome.
        c = [cand([1.0, 1.05, 1.1], intersecting=50), cand([1.1, 1.2, 1.3], intersecting=40),
             cand([1.25, 1.3, 1.35], intersecting=0)]
        self.assertEqual(best_of(c), (1, [0, 1]))


class Decisions(unittest.TestCase):
    def test_performs_the_task(self):
        self.assertTrue(performs(dict(status="complete", lift_fraction="0.90", hold="1.00")))
        self.assertFalse(performs(dict(status="complete", lift_fraction="0.89", hold="1.00")))
        self.assertFalse(performs(dict(status="incomplete", lift_fraction="1.00", hold="1.00")))
        # thrown (no force holds it) or crushed: not a grasp, however high the object went
        self.assertFalse(performs(dict(status="complete", lift_fraction="207.84", hold="0.00")))
        self.assertFalse(performs(dict(status="complete", lift_fraction="1.23", hold="34.77")))
        self.assertTrue(performs(dict(status="complete", lift_fraction="1.01", hold="1.87")))
        self.assertFalse(performs(dict(exit=3)))

    def test_settings_file_is_recognised_whatever_the_spelling(self):
        toml = {"max-substep": 0.002, "servo-kp": [300, 300, 10000], "margin": 0.001, "implicit": False}
        self.assertTrue(is_settings_file({"max-substep": 0.002, "servo-kp": [300, 300, 1e4]}, toml))
        self.assertTrue(is_settings_file({"implicit": "false", "margin": 0.001}, toml))
        self.assertFalse(is_settings_file({"margin": 0.0}, toml))
        self.assertFalse(is_settings_file({"rigid-fingers": True}, toml))  # not in the file: off
        self.assertTrue(is_settings_file({}, toml))

    def test_label(self):
        self.assertEqual(label({"servo-kp": [300, 300, 1e4], "margin": 0.001}), "servo-kp=300/300/10000.0 margin=0.001")
        self.assertEqual(label({}), "(settings file)")


if __name__ == "__main__":
    unittest.main()
