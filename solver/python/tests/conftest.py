# Fixtures of the Python module's tests: the module under test (build/python on
# PYTHONPATH), the eipc binary of the same build ($EIPC) and the source tree.
import os
import pathlib
import shutil

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("EIPC_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[3]))
TEDDY = SOURCE_DIR / "scenarios" / "bubble_grasp" / "teddy.json"
# A short, real grasp: low embedding, 50 steps, the bubbles touching the bear by the end.
SHORT = dict(dt=0.01, duration=0.5, embedding="low", threads=1)


@pytest.fixture(scope="session")
def eipc_binary():
    binary = os.environ.get("EIPC") or shutil.which("eipc")
    if not binary:
        pytest.skip("no eipc binary: set EIPC (ctest does)")
    return binary
