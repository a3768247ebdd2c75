# The examples, short but real (ctest python_module; docs/python.md).
import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import h5py

import closed_loop_grasp

HERE = pathlib.Path(__file__).resolve().parent
# Short runs: low embedding, h = 0.02; the force is reached after about 0.6 s, then a 5 cm lift.
SHORT = ["--dt", "0.02", "--duration", "1.2", "--lift", "0.05"]


def test_closed_loop_grasp_lifts_the_teddy_and_certifies(tmp_path, capsys):
    out = tmp_path / "grasp.h5"
    code = closed_loop_grasp.main([*SHORT, "--force", "20", "--out", str(out), "--threads", "1"])
    outcome = json.loads(capsys.readouterr().out)
    assert outcome["force_reached_at"] is not None and outcome["force_peak"] >= 20
    assert outcome["lifted"] and not outcome["teddy_on_ground"] and outcome["teddy_rise"] > 0.025
    assert outcome["certified"] and code == 0
    with h5py.File(out, "r") as f:
        assert f.attrs["status"] == "complete" and len(f["frames/time"]) == 61


def read_index(path):
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_batch_generation_is_resumable_after_a_kill(tmp_path):
    out = tmp_path / "batch"
    command = [sys.executable, str(HERE / "batch_grasps.py"), "--out", str(out), "--episodes", "3", *SHORT]
    # One process: kill it (and its worker) once the first episode is in the index.
    first = subprocess.Popen([*command, "--jobs", "1"], start_new_session=True, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while not read_index(out / "index.jsonl") and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        os.killpg(first.pid, signal.SIGKILL)  # the group this test started
        first.wait()
    killed = read_index(out / "index.jsonl")
    assert 1 <= len(killed) < 3, "the kill came too late to test resuming"
    # Again, two processes: only the missing episodes run.
    second = subprocess.run([*command, "--jobs", "2"], capture_output=True, text=True, timeout=300)
    assert second.returncode == 0, second.stderr
    summary = json.loads(second.stdout)
    assert summary["resumed"] == len(killed) and summary["episodes"] == 3
    assert "3/3 episodes" in second.stderr  # the progress bar
    index = read_index(out / "index.jsonl")
    assert sorted(r["episode"] for r in index) == [0, 1, 2]  # each exactly once
    assert index[: len(killed)] == killed  # the finished ones were kept, not rerun
    for record in index:
        assert set(record["params"]) == {"yaw_deg", "offset", "friction", "force"}
        assert record["status"] == "complete" and record["certified"] is True
        assert record["outcome"]["force_reached_at"] is not None
        with h5py.File(out / record["trajectory"], "r") as f:
            assert f.attrs["status"] == "complete"
    assert not list(out.glob("*.partial"))
    # Different episodes got different parameters.
    assert len({r["params"]["friction"] for r in index}) == 3
