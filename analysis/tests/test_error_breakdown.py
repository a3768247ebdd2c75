"""analysis/error_breakdown.py against `eipc error`: its first row is E, and the parts of
each group (time windows, bodies, axes, one body's rigid split) add up to E^2.
Needs $EIPC (the eipc binary); the unit test "analysis/tests: the report's Python unit
tests pass" runs it with this build's."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, ".."))

import numpy as np  # noqa: E402

from error_breakdown import breakdown, load  # noqa: E402

SCENE = os.path.join(ROOT, "solver/tests/data/reference/cube_drop.json")
REFERENCE = os.path.join(ROOT, "solver/tests/data/reference/cube_drop/full.h5")


class ErrorBreakdown(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.eipc = os.environ.get("EIPC")
        if not cls.eipc:
            raise unittest.SkipTest("set EIPC to the eipc binary")
        cls.tmp = tempfile.TemporaryDirectory()
        cls.run_path = os.path.join(cls.tmp.name, "run.h5")
        subprocess.run([cls.eipc, "run", SCENE, "--dt", "0.01", "--duration", "0.1", "--out", cls.run_path],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_first_row_is_eipc_error_and_groups_add_up(self):
        out = subprocess.run([self.eipc, "error", self.run_path, REFERENCE, "--json"], check=True,
                             capture_output=True, text=True).stdout
        expected = json.loads(out)["error"]
        self.assertGreater(expected, 0.0)
        edges = np.array([0.0, 0.03, 0.1 + 1e-9])
        h, parts = breakdown(self.run_path, load(REFERENCE), edges, ["early", "late"], "tumbler")
        self.assertEqual(h, 0.01)
        self.assertAlmostEqual(parts["E"] / expected, 1.0, places=12)
        e2 = parts["E"] ** 2

        def total(prefix):
            return sum(v**2 for k, v in parts.items() if k.startswith(prefix) and k.count(" ") == prefix.count(" "))

        self.assertAlmostEqual(total("t in ") / e2, 1.0, places=12)
        self.assertAlmostEqual(total("body ") / e2, 1.0, places=12)
        self.assertAlmostEqual(total("axis ") / e2, 1.0, places=12)
        rigid = sum(parts[f"tumbler: {k}"] ** 2 for k in ("translation", "rotation", "deformation"))
        self.assertAlmostEqual(rigid / parts["body tumbler"] ** 2, 1.0, places=10)


if __name__ == "__main__":
    unittest.main()
