"""The peer search's small decisions (analysis/peers_search.py; its ranking is the tuning rule's,
tests/test_tuning_rule.py): `/usr/bin/python3 -m pytest -q analysis/tests/test_peers_search.py`
(ctest: tuning_rule)."""
import csv
import os
import sys
import tempfile
import types
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from peers_search import earlier_screening, is_settings_file, kept_in_table, label, reusable, rule_run, screen  # noqa: E402


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
                   place_error_mm="1.5", wall="1.20")
        self.assertEqual(rule_run(row, wall=1.1, cpu=1.0),
                         dict(status="complete", intersecting=2, depth=0.08e-3, lift=0.2295, in_slot=True,
                              place_error=1.5e-3, wall=1.1, cpu=1.0))
        # a run that wrote no trajectory: nothing certified, no lift
        self.assertEqual(rule_run(dict(exit=3)), dict(status=None, intersecting=None, depth=None, lift=None,
                                                      in_slot=False, place_error=None, wall=None, cpu=None))

    def test_label(self):
        self.assertEqual(label({"servo-kp": [300, 300, 1e4], "margin": 0.001}), "servo-kp=300/300/10000.0 margin=0.001")
        self.assertEqual(label({}), "(settings file)")

    def test_an_earlier_screening_is_matched_to_the_grid_and_judged_again(self):
        plan = [(0, {"dt": 0.02}, False), (1, {"dt": 0.01}, False)]
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "teddy_eipc.csv")
            with open(path, "w", newline="") as f:
                w = csv.DictWriter(f, ["config", "status", "intersecting", "depth_mm", "held_lift_mm", "missed"])
                w.writeheader()
                # a stale verdict in the file: the rule's is recomputed
                w.writerow(dict(config="dt=0.01", status="complete", intersecting="0/401", depth_mm="0",
                                held_lift_mm="228.0", missed="lift"))
            with open(os.path.join(d, "teddy_eipc.md"), "w") as f:
                f.write("# Search\n\nMade by `peers_search.py teddy eipc` on 2026-12-02 from ...\n")
            args = types.SimpleNamespace(stage1=path, scene="bubble_grasp_teddy", engine="eipc")
            rows = earlier_screening(args, plan, 0.2278)
            self.assertEqual([(r["n"], r["opts"], r["missed"]) for r in rows], [(1, {"dt": 0.01}, "none: succeeds")])
            self.assertEqual(args.stage1_made_by, "made by `peers_search.py teddy eipc` on 2026-12-02")
            with open(path, "a", newline="") as f:
                csv.writer(f).writerow(["dt=0.5", "complete", "0/9", "0", "228.0", ""])
            with self.assertRaises(SystemExit):  # a row that is no point of the grid
                earlier_screening(args, plan, 0.2278)

    def test_the_settings_file_row_becomes_the_grid_point_that_equals_it(self):
        plan = [(0, {"dt": 0.02}, False), (1, {"dt": 0.01}, True)]  # grid point 1 equals the settings file
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "teddy_eipc.csv")
            with open(path, "w", newline="") as f:
                w = csv.DictWriter(f, ["config", "settings_file", "status", "intersecting", "depth_mm", "held_lift_mm"])
                w.writeheader()
                w.writerow({"config": "(settings file)", "settings_file": "yes", "status": "complete",
                            "intersecting": "0/401", "depth_mm": "0", "held_lift_mm": "228.0"})
            args = types.SimpleNamespace(stage1=path, scene="bubble_grasp_teddy", engine="eipc")
            rows = earlier_screening(args, plan, 0.2278)
            self.assertEqual([(r["n"], r["config"]) for r in rows], [(1, "dt=0.01")])
            with self.assertRaises(SystemExit):  # no grid point equals it and no extra row: refused
                earlier_screening(args, [(0, {"dt": 0.02}, False)], 0.2278)

    def test_the_kept_configuration_is_read_back_from_its_table(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "peers_search"))
            table = os.path.join(d, "peers_search", "bubble_grasp_teddy_eipc.md")

            def kept(line):
                with open(table, "w") as f:
                    f.write("# Search: eipc on bubble_grasp_teddy\n\nMade by ...\n\n" + line + "\n\nRule ...\n")
                return kept_in_table("bubble_grasp_teddy", "eipc", d)
            self.assertEqual(kept("Kept: **dt=0.01 embedding=low** (succeeds), wall 0.5 [0.4–0.6] s, ..."),
                             dict(opts={"dt": 0.01, "embedding": "low"}, label="dt=0.01 embedding=low", missed=""))
            self.assertEqual(kept("Kept: **dt=0.02 embedding=full** (no configuration succeeds; the closest misses: "
                                  "intersection-free, lift), screening wall untimed s")["missed"],
                             "intersection-free, lift")
            self.assertEqual(kept("Kept: **(settings file)** (succeeds), wall 1 [1–1] s")["opts"], {})
            with self.assertRaises(ValueError):  # a configuration the grid no longer has: search again
                kept("Kept: **dt=0.5 embedding=low** (succeeds), wall 1 [1–1] s")
            with self.assertRaises(ValueError):  # a table of the former rule ("Winner:")
                kept("Winner: **dt=0.01 embedding=low**, wall 1 [1–1] s")
            self.assertIsNone(kept_in_table("finray_plate_rack", "eipc", d))  # no table: not searched
            self.assertIsNone(kept_in_table("cube_squeeze", "eipc", d))  # no grid

    def test_resume_reuses_a_finished_run_of_the_same_command_only(self):
        with tempfile.TemporaryDirectory() as d:
            counter = os.path.join(d, "runs")
            # A stand-in engine that counts its runs and writes no trajectory.
            code = f"open({counter!r}, 'a').write('x')"
            args = types.SimpleNamespace(work_dir=d, resume=True, max_load=1e9, screen_wait=0, min_cpu_share=0.0,
                                         scene="cube_squeeze")
            plan = [(0, {"dt": 0.02}, False)]

            def runs(cmd_opts):
                rows = screen(args, None, lambda opts: [sys.executable, "-c", code] + cmd_opts, plan, 0.1)
                self.assertEqual(rows[0]["exit"], 0)
                return len(open(counter).read())
            self.assertEqual(runs([]), 1)
            self.assertEqual(runs([]), 1)  # finished before: reused, with its exit code
            self.assertEqual(runs(["--other"]), 2)  # another command: run again
            args.resume = False
            self.assertEqual(runs(["--other"]), 3)

    def test_a_finished_run_is_reused_under_a_larger_wall_limit_only(self):
        run = ["eipc-mujoco-flex", "scene.json", "--max-wall", "4500", "--out", "a.h5"]
        longer = ["eipc-mujoco-flex", "scene.json", "--max-wall", "9000", "--out", "a.h5"]
        shorter = ["eipc-mujoco-flex", "scene.json", "--max-wall", "900", "--out", "a.h5"]
        self.assertTrue(reusable(dict(cmd=run, exit=0), longer))  # the limit never acted
        self.assertFalse(reusable(dict(cmd=run, exit=3), longer))  # stopped (perhaps by the limit): run again
        self.assertFalse(reusable(dict(cmd=run, exit=0), shorter))  # the shorter limit might stop it
        self.assertTrue(reusable(dict(cmd=run, exit=3), run))
        self.assertFalse(reusable(dict(cmd=run, exit=0), longer[:-1] + ["b.h5"]))


if __name__ == "__main__":
    unittest.main()
