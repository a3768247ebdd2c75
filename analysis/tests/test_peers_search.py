"""The peer search's small decisions (analysis/peers_search.py; its ranking is the tuning rule's,
tests/test_tuning_rule.py): `/usr/bin/python3 -m pytest -q analysis/tests/test_peers_search.py`
(ctest: tuning_rule)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from peers_search import is_settings_file, label, rule_run  # noqa: E402


class Decisions(unittest.TestCase):
    def test_settings_file_is_recognised_whatever_the_spelling(self):
        toml = {"max-substep": 0.002, "servo-kp": [300, 300, 10000], "margin": 0.001, "implicit": False}
        self.assertTrue(is_settings_file({"max-substep": 0.002, "servo-kp": [300, 300, 1e4]}, toml))
        self.assertTrue(is_settings_file({"implicit": "false", "margin": 0.001}, toml))
        self.assertFalse(is_settings_file({"margin": 0.0}, toml))
        self.assertFalse(is_settings_file({"rigid-fingers": True}, toml))  # not in the file: off
        self.assertTrue(is_settings_file({}, toml))

    def test_rule_reads_the_table_row(self):
        row = dict(status="complete", intersecting="2/401", depth_mm="0.08", held_lift_mm="229.5", in_slot="yes",
                   wall="1.20")
        self.assertEqual(rule_run(row, wall=1.1, cpu=1.0),
                         dict(status="complete", intersecting=2, depth=0.08e-3, lift=0.2295, in_slot=True, wall=1.1,
                              cpu=1.0))
        # a run that wrote no trajectory: nothing certified, no lift
        self.assertEqual(rule_run(dict(exit=3)), dict(status=None, intersecting=None, depth=None, lift=None,
                                                      in_slot=False, wall=None, cpu=None))

    def test_label(self):
        self.assertEqual(label({"servo-kp": [300, 300, 1e4], "margin": 0.001}), "servo-kp=300/300/10000.0 margin=0.001")
        self.assertEqual(label({}), "(settings file)")


if __name__ == "__main__":
    unittest.main()
