"""Checks of the report's arithmetic: `python3 -m unittest discover analysis/tests` (Debian python)."""
import math
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from eipc_report.errors import InputError  # noqa: E402
from eipc_report.fit import fitted_order  # noqa: E402
from eipc_report.runs import COLUMNS, read_runs  # noqa: E402


class FittedOrder(unittest.TestCase):
    def test_power_laws_give_their_exponent(self):
        h = [0.005, 0.01, 0.02, 0.04]
        for p in (0.5, 1.0, 2.0):
            self.assertAlmostEqual(fitted_order(h, [3.7 * x ** p for x in h]), p, places=12)

    def test_least_squares_slope_of_scattered_points(self):
        # log-log points (x, y) = (0, 0), (1, 2), (2, 1): slope sum(dx dy)/sum(dx^2) = 1/2.
        e = math.e
        self.assertAlmostEqual(fitted_order([1.0, e, e * e], [1.0, e ** 2, e]), 0.5, places=12)

    def test_unusable_points_are_left_out(self):
        self.assertAlmostEqual(fitted_order([0.01, 0.02, 0.04], [0.0, 2e-3, 4e-3]), 1.0, places=12)
        self.assertIsNone(fitted_order([0.01, 0.02], [1e-3, float("nan")]))
        self.assertIsNone(fitted_order([0.01, 0.01], [1e-3, 2e-3]))


class RunsCsv(unittest.TestCase):
    def write(self, text):
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        with open(os.path.join(d, "runs.csv"), "w") as f:
            f.write(text)
        return d

    def test_missing_column_is_named(self):
        d = self.write(",".join(c for c in COLUMNS if c != "error") + "\n")
        with self.assertRaisesRegex(InputError, r"runs\.csv: header: missing column\(s\) error"):
            read_runs(d)

    def test_bad_number_names_line_and_field(self):
        row = "s,full,abc,1,1,1,1,1,1,1,yes,complete,0,a.h5,1e-3"
        d = self.write(",".join(COLUMNS) + "\n" + row + "\n")
        with self.assertRaisesRegex(InputError, r"runs\.csv line 2: field 'dt': 'abc' is not a number"):
            read_runs(d)

    def test_later_row_replaces_earlier_one(self):
        rows = ["s,low,0.01,100,2,0.5,3,4,0,1e-4,yes,incomplete,3,a.h5,",
                "s,low,0.01,100,1,1.0,3,4,0,1e-4,yes,complete,0,b.h5,2e-3"]
        runs = read_runs(self.write(",".join(COLUMNS) + "\n" + "\n".join(rows) + "\n"))
        self.assertEqual(len(runs), 1)
        self.assertEqual((runs[0].ok, runs[0].trajectory, runs[0].error, runs[0].line), (True, "b.h5", 2e-3, 3))


class ReportWithoutReferences(unittest.TestCase):
    def test_runs_without_error_or_trajectory_still_give_tables_and_plots(self):
        from eipc_report.report import make_report
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        rows = ["s,full,0.01,100,6,0.17,3,4,0,1e-4,,complete,0,,",
                "s,low,0.01,100,2,0.5,3,4,0,1e-4,,complete,0,,",
                "s,low,0.02,50,inf,0,3,4,0,1e-4,,complete,0,,nan"]
        with open(os.path.join(d, "runs.csv"), "w") as f:
            f.write(",".join(COLUMNS) + "\n" + "\n".join(rows) + "\n")
        out = os.path.join(d, "out")
        make_report(d, out, ["bubble_left", "teddy"], None, None, "test")
        with open(os.path.join(out, "report.md")) as f:
            text = f.read()
        self.assertIn("| low | no reference | nan | – |", text)
        self.assertIn("| low | 0.01 | 2 | 0.5 | 3 | 4 | 3.00× | – |", text)
        for stem in ("error_vs_dt", "wall_vs_dt", "error_vs_wall"):
            self.assertGreater(os.path.getsize(os.path.join(out, stem + ".png")), 1000)
        self.assertFalse(os.path.exists(os.path.join(out, "contact_forces.png")))


class DominantFrames(unittest.TestCase):
    """A fitted order far from 1 is explained by the frame that carries E(h)^2 (issue 62)."""

    def report_text(self, rows):
        from eipc_report.report import make_report
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        with open(os.path.join(d, "runs.csv"), "w") as f:
            f.write(",".join(COLUMNS + ["worst_frame_time", "worst_frame_share"]) + "\n" + "\n".join(rows) + "\n")
        out = os.path.join(d, "out")
        make_report(d, out, ["a", "b"], None, None, "test")
        with open(os.path.join(out, "report.md")) as f:
            return f.read()

    def test_a_flat_error_names_its_first_frame(self):
        # E nearly flat in h (order 0.15): the first frame carries most of E^2 at every h.
        text = self.report_text(["s,full,0.005,200,6,0.17,3,4,0,1e-4,,complete,0,,9.0e-4,0.005,0.9",
                                 "s,full,0.01,100,6,0.17,3,4,0,1e-4,,complete,0,,1.0e-3,0.01,0.8",
                                 "s,full,0.02,50,6,0.17,3,4,0,1e-4,,complete,0,,1.1e-3,0.02,0.7"])
        self.assertIn("full: fitted order 0.145 is far from 1. The frame with the largest error and its share of "
                      "E(h)²: h = 0.005 s: t = 0.005 s, 90%; h = 0.01 s: t = 0.01 s, 80%; h = 0.02 s: t = 0.02 s, 70%.",
                      text)
        self.assertIn("The first frames (t ≤ 2h) carry much of it; if nothing starts within d̂,", text)

    def test_a_start_within_dhat_is_read_from_the_trajectory(self):
        import h5py
        from eipc_report.report import dominant_frame_notes
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        for name, gap in (("near.h5", 5e-4), ("far.h5", float("inf"))):
            with h5py.File(os.path.join(d, name), "w") as f:
                f["frames/min_distance"] = [gap, 1e-3]
                f.attrs["contact_json"] = '{"dhat": 0.001}'
        for name, said in (("near.h5", "is 0.0005 m apart, within d̂ = 0.001 m"),
                           ("far.h5", "nothing starts within d̂, so look at what happens then")):
            with open(os.path.join(d, "runs.csv"), "w") as f:
                f.write(",".join(COLUMNS + ["worst_frame_time", "worst_frame_share"]) + "\n" +
                        f"s,full,0.01,100,6,0.17,3,4,0,1e-4,,complete,0,{name},1e-3,0.01,0.8\n" +
                        f"s,full,0.02,50,6,0.17,3,4,0,1e-4,,complete,0,{name},1.1e-3,0.02,0.7\n")
            from eipc_report.runs import read_runs
            from eipc_report.tables import convergence
            runs = read_runs(d)
            notes = dominant_frame_notes(d, convergence(runs), runs)
            self.assertEqual(len(notes), 1)
            self.assertIn(said, notes[0])

    def test_first_order_gets_no_note(self):
        text = self.report_text(["s,full,0.005,200,6,0.17,3,4,0,1e-4,,complete,0,,1e-4,0.5,0.05",
                                 "s,full,0.01,100,6,0.17,3,4,0,1e-4,,complete,0,,2e-4,0.5,0.05"])
        self.assertNotIn("is far from 1", text)

    def test_a_late_dominant_frame_is_named_without_the_start_hint(self):
        text = self.report_text(["s,full,0.005,200,6,0.17,3,4,0,1e-4,,complete,0,,1e-4,0.75,0.6",
                                 "s,full,0.01,100,6,0.17,3,4,0,1e-4,,complete,0,,1.05e-4,0.75,0.6"])
        self.assertIn("h = 0.005 s: t = 0.75 s, 60%", text)
        self.assertNotIn("The first frames", text)


class HoldForce(unittest.TestCase):
    def series(self, force_x):
        import numpy as np
        from eipc_report.trajectory import PairSeries
        t = np.linspace(0, 4, 9)
        normal = np.zeros((9, 3))
        normal[:, 0] = force_x(t)
        return PairSeries(t, normal, 0.25 * normal, np.ones(9), np.ones(9), "complete")

    def test_mean_over_the_window_and_signed_error(self):
        from eipc_report import hold_force

        class R:
            wall_seconds = 2.0
        rows = hold_force.hold_rows({"low": self.series(lambda t: -8.0 * t)}, {"low": 32}, (3.0, 4.0), "x",
                                    -10.0, [{"embedding": "low", "order": 1.0}],
                                    [{"embedding": "low", "dt": 0.02, "run": R()}])
        # frames at t = 3, 3.5, 4: x = -1.25 * 8 t, mean -35 N
        self.assertAlmostEqual(rows[0]["hold_force_N"], -35.0)
        self.assertAlmostEqual(rows[0]["force_error"], 2.5)  # 3.5 times the reference: +250%
        self.assertEqual((rows[0]["nodes"], rows[0]["wall_s"], rows[0]["fitted_order"]), (32, 2.0, 1.0))

    def test_a_window_after_the_run_is_refused(self):
        from eipc_report import hold_force
        with self.assertRaisesRegex(InputError, "no frame of the low run"):
            hold_force.hold_rows({"low": self.series(lambda t: t)}, {"low": 1}, (5.0, 6.0), "x", None, [], [])
        with self.assertRaisesRegex(InputError, "--hold"):
            hold_force.parse_hold("4,3")


if __name__ == "__main__":
    unittest.main()
