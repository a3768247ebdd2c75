# The Python module against the command line and its own promises (docs/python.md).
import json
import math
import subprocess
import warnings

import h5py
import numpy as np
import pytest

import eipc
from conftest import SHORT, TEDDY


def short_grasp(**overrides):
    return eipc.Simulation(TEDDY, **{**SHORT, **overrides})


def datasets(path):
    """Every dataset and every attribute of an HDF5 file, by name."""
    out = {}
    with h5py.File(path, "r") as f:
        def visit(name, obj):
            for key, value in obj.attrs.items():
                out[f"{name}@{key}"] = value
            if isinstance(obj, h5py.Dataset):
                out[name] = obj[()]
        f.visititems(visit)
        for key, value in f.attrs.items():
            out[f"@{key}"] = value
    return out


def assert_identical(a, b):
    assert a.keys() == b.keys()
    for name in a:
        x, y = a[name], b[name]
        if isinstance(x, np.ndarray) and x.dtype == object:  # variable-length strings
            assert x.tolist() == y.tolist(), f"{name} differs"
        elif isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and x.shape == y.shape, name
            assert x.tobytes() == y.tobytes(), f"{name} differs"
        else:
            assert x == y, f"{name}: {x!r} != {y!r}"


def test_stepping_from_python_is_bit_identical_to_eipc_run(tmp_path, eipc_binary):
    cli = tmp_path / "cli.h5"
    subprocess.run([eipc_binary, "run", str(TEDDY), "--dt", "0.01", "--duration", "0.5", "--embedding", "low",
                    "--threads", "1", "--set", "output.every=0.02", "--out", str(cli)],
                   check=True, capture_output=True)
    py = tmp_path / "py.h5"
    sim = short_grasp(set=["output.every=0.02"])
    sim.write_trajectory(str(py))
    while not sim.finished:
        sim.step()
        sim.positions("teddy")  # reading the state must not change the run
    a, b = datasets(cli), datasets(py)
    # Wall time is the only thing allowed to differ.
    del a["frames/wall_seconds"], b["frames/wall_seconds"]
    assert len(a["frames/time"]) == 26  # frame 0 and every second step
    assert_identical(a, b)
    assert (tmp_path / "py.xdmf").read_text() == (tmp_path / "cli.xdmf").read_text().replace("cli.h5", "py.h5")


def test_time_steps_and_finished():
    sim = short_grasp()
    assert (sim.time, sim.step_index, sim.steps, sim.finished) == (0.0, 0, 50, False)
    assert sim.last_step is None
    stats = sim.step(3)
    assert sim.step_index == 3 and math.isclose(sim.time, 0.03)
    assert stats["newton_iterations"] >= 1 and stats == sim.last_step
    sim.step(47)
    assert sim.finished and sim.summary()["status"] == "complete" and sim.summary()["steps"] == 50
    with pytest.raises(RuntimeError, match="the run has ended"):
        sim.step()


def test_arrays_handed_out_are_copies_that_later_steps_do_not_change():
    sim = short_grasp()
    got = (sim.positions("bubble_left"), sim.velocities("bubble_left"), sim.nodes("teddy"))
    kept = [a.copy() for a in got]
    sim.step(5)
    now = (sim.positions("bubble_left"), sim.velocities("bubble_left"), sim.nodes("teddy"))
    for handed, original, current in zip(got, kept, now):
        assert np.array_equal(handed, original)       # not corrupted by the steps
        assert not np.array_equal(current, original)  # although the state moved
    # Writing into a handed-out array does not change the simulation either.
    p = sim.positions("teddy")
    p[:] = 0.0
    assert not np.array_equal(sim.positions("teddy"), p)


def test_state_shapes_and_the_embedding_map():
    sim = short_grasp()
    sim.step(2)
    teddy_q = sim.nodes("teddy")
    x = sim.positions("teddy")
    assert teddy_q.shape == (32, 3) and x.shape == (410, 3)  # low embedding: 32 nodes carry volume; 410 vertices
    # Full-space bubbles: nodes are the fine vertices.
    assert np.array_equal(sim.nodes("bubble_left"), sim.positions("bubble_left"))
    assert sim.velocities(1).shape == (67, 3)
    # The bubble's flat face moves inwards at 0.035 m / 1.5 s (the scene's keyframes).
    v = sim.velocities("bubble_left")[sim.prescribed_nodes("bubble_left")]
    assert np.allclose(v, [0.035 / 1.5, 0, 0], atol=1e-9)


def test_set_targets_moves_the_prescribed_nodes_where_asked():
    sim = short_grasp()
    rows = sim.prescribed_nodes("bubble_left")
    assert len(rows) == 17 and rows == sorted(rows)
    rest = sim.nodes("bubble_left")[rows]
    assert np.array_equal(sim.targets("bubble_left"), rest)
    goal = rest + [0.003, 0.001, -0.002]
    sim.set_targets("bubble_left", goal)
    assert np.array_equal(sim.targets("bubble_left"), goal)
    sim.step()
    assert np.allclose(sim.nodes("bubble_left")[rows], goal, rtol=0, atol=1e-12)
    # The right bubble still follows the scene's keyframes.
    right = sim.prescribed_nodes("bubble_right")
    assert np.allclose(sim.nodes("bubble_right")[right], sim.targets("bubble_right"), rtol=0, atol=1e-12)

    # A rigid transform of the rest positions: a small turn about z and a lift.
    a = 0.05
    rotation = [[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]]
    sim.set_transform("bubble_left", rotation, [0.002, 0, 0.004])
    targets = sim.targets("bubble_left")
    # Rigid: the distances between the targets are those of the rest positions; the shift is as asked.
    dist = lambda p: np.linalg.norm(p[:, None] - p[None, :], axis=-1)
    assert np.allclose(dist(targets), dist(rest), atol=1e-12)
    assert np.allclose((targets - rest)[:, 2], 0.004, atol=1e-12)
    sim.step()
    assert np.allclose(sim.nodes("bubble_left")[rows], targets, rtol=0, atol=1e-12)
    # Back to the keyframes.
    sim.clear_targets("bubble_left")
    assert not np.allclose(sim.targets("bubble_left"), targets)


def test_contact_forces_and_statistics_are_those_of_the_trajectory(tmp_path):
    path = tmp_path / "run.h5"
    sim = short_grasp()
    sim.write_trajectory(str(path))
    forces, stats = [], []
    for _ in range(sim.steps):
        sim.step()
        forces.append(sim.contact_forces())
        stats.append(sim.last_step)
    # By the end the bear stands on the ground (pushed up) and both bubbles touch it.
    last = {(f["body_a"], f["body_b"]): f for f in forces[-1]}
    assert set(last) == {("teddy", "ground"), ("teddy", "bubble_left"), ("teddy", "bubble_right")}
    assert last[("teddy", "ground")]["normal"][2] > 0
    assert last[("teddy", "bubble_right")]["normal"][0] < 0 < last[("teddy", "bubble_left")]["normal"][0]  # pushed inwards
    with h5py.File(path, "r") as f:
        names = [n.decode() if isinstance(n, bytes) else n for n in f.attrs["body_names"]]
        pairs = [(names[a], "ground" if b < 0 else names[b]) for a, b in f["contact/pairs"][()]]
        for step in range(sim.steps):
            frame = step + 1  # frame 0 is the initial state
            stored = {pair: (f["contact/normal_force"][frame, k], f["contact/friction_force"][frame, k],
                             f["contact/pair_count"][frame, k]) for k, pair in enumerate(pairs)
                      if f["contact/pair_count"][frame, k] > 0}
            got = {(g["body_a"], g["body_b"]): (g["normal"], g["friction"], g["pairs"]) for g in forces[step]}
            assert stored.keys() == got.keys()
            for pair, (normal, friction, count) in got.items():
                assert np.array_equal(normal, stored[pair][0]) and np.array_equal(friction, stored[pair][1])
                assert count == stored[pair][2]
            for key in ["newton_iterations", "line_search_steps", "active_pairs", "min_distance"]:
                assert stats[step][key] == f[f"frames/{key}"][frame], key
    summary = sim.summary()
    assert summary["status"] == "complete" and summary["steps"] == 50 and summary["wall_seconds"] > 0
    assert summary["newton_iterations_max"] == max(s["newton_iterations"] for s in stats)


def test_summary_while_running():
    sim = short_grasp()
    sim.step()
    summary = sim.summary()
    assert summary["status"] == "running" and summary["steps"] == 1 and summary["reason"] == ""


def test_scene_from_a_dict_with_a_base_dir_gives_the_same_run():
    doc = json.loads(TEDDY.read_text())
    a = eipc.Simulation(doc, base_dir=str(TEDDY.parent), **SHORT)
    b = short_grasp()
    a.step(2)
    b.step(2)
    assert np.array_equal(a.positions("teddy"), b.positions("teddy"))
    assert a.bodies == ["teddy", "bubble_left", "bubble_right"]


def test_certify_returns_the_report_of_eipc_certify_json(tmp_path, eipc_binary):
    path = tmp_path / "run.h5"
    sim = short_grasp()
    sim.write_trajectory(str(path))
    sim.step(50)
    report = eipc.certify(str(path))
    cli = json.loads(subprocess.run([eipc_binary, "certify", str(path), "--json"], capture_output=True,
                                    text=True, check=True).stdout)
    assert report["ok"] and report["exit_code"] == 0 and len(report["frames"]) == 51
    # Wall times differ between two runs: the summary's and each frame's phase seconds.
    for r in (report, cli):
        del r["summary"]["seconds"]
        for frame in r["frames"]:
            frame.pop("seconds", None)
    assert report == cli


def test_a_solver_failure_raises_and_keeps_the_trajectory_marked_incomplete(tmp_path):
    path = tmp_path / "run.h5"
    sim = short_grasp(max_wall=1e-9)
    sim.write_trajectory(str(path))
    with pytest.raises(eipc.SolverFailure, match=r"max_wall .* exceeded: step 1: ") as failure:
        sim.step()
    assert isinstance(failure.value, RuntimeError)
    assert sim.finished and sim.summary()["status"] == "incomplete"
    with h5py.File(path, "r") as f:
        assert f.attrs["status"] == "incomplete"
        assert f.attrs["status_reason"] == str(failure.value)
        assert len(f["frames/time"]) == 1


def test_a_program_that_stops_early_leaves_an_incomplete_trajectory(tmp_path):
    path = tmp_path / "run.h5"
    with short_grasp() as sim:
        sim.write_trajectory(str(path))
        sim.step(3)
    with pytest.raises(RuntimeError, match="the simulation is closed"):
        sim.step()
    assert sim.summary()["status"] == "incomplete"
    assert sim.summary()["reason"] == "stopped by the program at step 3 of 50"
    with h5py.File(path, "r") as f:
        assert f.attrs["status"] == "incomplete"
        assert f.attrs["status_reason"] == "stopped by the program at step 3 of 50"
        assert len(f["frames/time"]) == 4


INTERRUPTED_RUN = """
import sys, eipc
with eipc.Simulation(sys.argv[1], dt=0.01, duration=40.0, embedding="low", threads=1) as sim:
    sim.write_trajectory(sys.argv[2])
    sim.step(4000)
"""


def test_ctrl_c_during_many_steps_raises_keyboard_interrupt_after_the_current_step(tmp_path):
    import os
    import signal
    import sys
    import time
    path = tmp_path / "run.h5"
    child = subprocess.Popen([sys.executable, "-c", INTERRUPTED_RUN, str(TEDDY), str(path)], stderr=subprocess.PIPE,
                             text=True, env=os.environ)
    partial = tmp_path / "run.h5.partial"
    for _ in range(600):
        if partial.exists():
            break
        time.sleep(0.05)
    time.sleep(0.5)
    child.send_signal(signal.SIGINT)
    _, stderr = child.communicate(timeout=60)
    assert child.returncode != 0
    assert "KeyboardInterrupt" in stderr, stderr
    with h5py.File(path, "r") as f:
        assert f.attrs["status"] == "incomplete"
        reason = f.attrs["status_reason"]
        reason = reason.decode() if isinstance(reason, bytes) else str(reason)
        assert reason.startswith("interrupted (KeyboardInterrupt) at step "), reason
        steps = int(reason.split("at step ")[1].split(" of ")[0])
        assert 0 < steps < 4000
        assert len(f["frames/time"]) == steps + 1  # every step stored, the interrupted one complete


# Bad input the command line also has: the same message as its exit 2.
CLI_CASES = [
    ("missing scene", dict(scene="no/such/scene.json"), ["no/such/scene.json"]),
    ("bad dt", dict(dt=-0.01), [str(TEDDY), "--dt", "-0.01"]),
    ("duration not whole steps", dict(duration=0.105), [str(TEDDY), "--duration", "0.105"]),
    ("unknown embedding", dict(set=["bodies.0.embedding=medium_rare"]),
     [str(TEDDY), "--set", "bodies.0.embedding=medium_rare"]),
    ("bad --set value", dict(set=["contact.kappa=-1"]), [str(TEDDY), "--set", "contact.kappa=-1"]),
    ("bad --set key", dict(set=["bodies.7.name=x"]), [str(TEDDY), "--set", "bodies.7.name=x"]),
    ("misspelt embedding", dict(embedding="lo"), [str(TEDDY), "--embedding", "lo"]),
    ("misspelt field", dict(set=["contact.kapa=1"]), [str(TEDDY), "--set", "contact.kapa=1"]),
    ("body by name", dict(set=["bodies.tedy.material.youngs=1"]), [str(TEDDY), "--set", "bodies.tedy.material.youngs=1"]),
]


@pytest.mark.parametrize("case,kwargs,cli_args", CLI_CASES, ids=[c[0] for c in CLI_CASES])
def test_bad_input_raises_input_error_with_the_command_lines_message(case, kwargs, cli_args, eipc_binary, tmp_path):
    kwargs = dict(kwargs)
    scene = kwargs.pop("scene", TEDDY)
    with pytest.raises(eipc.InputError) as error:
        eipc.Simulation(scene, **kwargs)
    assert isinstance(error.value, ValueError)
    cli = subprocess.run([eipc_binary, "run", *cli_args, "--out", str(tmp_path / "x.h5")], capture_output=True,
                         text=True)
    assert cli.returncode == 2
    assert str(error.value) and str(error.value) in cli.stderr


def test_bad_input_from_python_raises_input_error_with_a_message():
    sim = short_grasp()
    cases = [
        (lambda: sim.positions("tedy"), f"{TEDDY}: no body named 'tedy' (did you mean 'teddy'?); its bodies: "),
        (lambda: sim.nodes(3), "no body 3 (the scene has 3)"),
        (lambda: sim.positions(1.5), "a body is given by its name or index, got 1.5"),
        (lambda: sim.targets("teddy"), "body 'teddy' has no prescribed nodes"),
        (lambda: sim.set_targets("teddy", np.zeros((36, 3))), "body 'teddy' has no prescribed nodes"),
        (lambda: sim.set_targets("bubble_left", np.zeros((16, 3))),
         "set_targets('bubble_left'): expected shape (17, 3) (one row per prescribed node), got (16, 3)"),
        (lambda: sim.set_targets("bubble_left", np.full((17, 3), np.nan)),
         "set_targets('bubble_left'): values must be finite"),
        (lambda: sim.set_targets("bubble_left", "left"), "set_targets('bubble_left'): expected an array of numbers"),
        (lambda: sim.set_transform("bubble_left", np.eye(3) * 2, [0, 0, 0]),
         "set_transform('bubble_left'): rotation is not a rotation matrix (orthonormal, determinant +1)"),
        (lambda: sim.set_transform("bubble_left", np.eye(3), [0, 0]),
         "set_transform('bubble_left'): translation must have 3 values, got 2"),
        (lambda: sim.set_transform("bubble_left", np.eye(2), [0, 0, 0]),
         "set_transform('bubble_left'): rotation must be 3x3, got (2, 2)"),
        (lambda: sim.step(0), "step: n must be at least 1, got 0"),
        (lambda: eipc.Simulation(TEDDY, threads=-1), "threads: must be 0 (all cores) or positive, got -1"),
        (lambda: eipc.Simulation(TEDDY, max_wall=0), "max_wall: must be positive"),
        (lambda: eipc.certify("no/such/run.h5"), "no/such/run.h5"),
    ]
    for call, message in cases:
        with pytest.raises(eipc.InputError) as error:
            call()
        assert message in str(error.value), (message, str(error.value))
    # Nothing of that changed the simulation.
    assert sim.step_index == 0 and sim.step()["newton_iterations"] >= 1


def test_a_dict_scene_names_base_dir_in_its_messages(tmp_path):
    doc = json.loads(TEDDY.read_text())
    doc["dt"] = -1
    with pytest.raises(eipc.InputError, match=str(tmp_path / "<dict>")):
        eipc.Simulation(doc, base_dir=str(tmp_path))
    # Relative mesh paths start at base_dir.
    doc = json.loads(TEDDY.read_text())
    with pytest.raises(eipc.InputError, match=str(tmp_path / "missing.vtk")):
        eipc.Simulation({**doc, "bodies": [{**doc["bodies"][0], "mesh": "missing.vtk"}]}, base_dir=str(tmp_path))


def test_a_start_within_dhat_is_a_user_warning():
    """The barrier acts from the first step when bodies start closer than dhat (issue 62)."""
    squeeze = json.loads((TEDDY.parents[1] / "examples" / "soft_cube_squeeze.json").read_text())
    base = str(TEDDY.parents[1] / "examples")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the example starts 2 mm up: no warning
        eipc.Simulation(squeeze, base_dir=base, duration=0.01)
    squeeze["bodies"][0]["transform"]["translation"] = [0, 0, 0.0005]
    with pytest.warns(UserWarning, match="'cube' and the ground start 0.0005 m apart, within the barrier's reach"):
        eipc.Simulation(squeeze, base_dir=base, duration=0.01)
