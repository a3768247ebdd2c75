# eipc.PeerRun: a peer engine written in Python writes its trajectory through the peers' run
# loop (docs/python.md, "Peer engines in Python"). A toy engine stands in for Drake.
import json

import h5py
import numpy as np
import pytest

import eipc
from conftest import SOURCE_DIR, TEDDY


class RisingEngine:
    """Lifts every body 1 mm per step; the bubbles push the teddy up with 1 N each (given
    once the other way round, to check that the pair is stored turned)."""
    name = "toy"
    version = "Toy 1.0"

    def __init__(self, run, fail_at=None):
        self.x = [np.array(b["rest"]) for b in run.bodies]
        self.n = 0
        self.fail_at = fail_at

    def parameters(self):
        return {"lift_per_step": 0.001}

    def mapping(self):
        return [{"body": "teddy", "peer_model": "rigid"}]

    def step(self):
        self.n += 1
        if self.n == self.fail_at:
            raise eipc.SolverFailure("toy blew up")
        for x in self.x:
            x[:, 2] += 0.001
        return 2

    def positions(self):
        return self.x

    def contact_forces(self):
        return [{"body_a": "teddy", "body_b": "bubble_left", "normal": [0, 0, 1.0], "friction": [0.5, 0, 0], "pairs": 3},
                {"body_a": "bubble_right", "body_b": 0, "normal": np.array([0, 0, -1.0]), "friction": [0, 0, 0],
                 "pairs": 4}]


def test_posed_puts_the_rest_vertices_where_the_motion_does():
    # FinRay's carry turns the fingers 90 degrees about y: R = Rz Ry Rx about the pivot, then
    # the translation (docs/scene-format.md), written out here independently of eipc.
    run = eipc.PeerRun(SOURCE_DIR / "scenarios" / "finray_plate_rack.json", duration=0.01)
    finger = next(b for b in run.bodies if b["name"] == "finger_left")
    for t in (0.0, 1.2, 2.0, 3.5):
        m = run.motion_at("finger_left", t)
        ax, ay, az = np.radians(m["rotation_deg"])
        rx = np.array([[1, 0, 0], [0, np.cos(ax), -np.sin(ax)], [0, np.sin(ax), np.cos(ax)]])
        ry = np.array([[np.cos(ay), 0, np.sin(ay)], [0, 1, 0], [-np.sin(ay), 0, np.cos(ay)]])
        rz = np.array([[np.cos(az), -np.sin(az), 0], [np.sin(az), np.cos(az), 0], [0, 0, 1]])
        pivot = np.array(finger["pivot"])
        want = (np.array(finger["rest"]) - pivot) @ (rz @ ry @ rx).T + pivot + np.array(m["translation"])
        assert np.abs(np.array(run.posed("finger_left", t)) - want).max() < 1e-12
    assert max(abs(a) for a in run.motion_at("finger_left", 3.5)["rotation_deg"]) > 45  # it did turn
    with pytest.raises(eipc.InputError, match="has no motion"):
        run.posed("plate", 1.0)


def test_peer_run_writes_the_header_frames_and_attributes(tmp_path):
    run = eipc.PeerRun(TEDDY, dt=0.02, duration=0.1)
    assert run.name == "bubble_grasp_teddy" and run.steps == 5 and run.output_stride == 1
    assert [b["name"] for b in run.bodies] == ["teddy", "bubble_left", "bubble_right"]
    assert len(run.bodies[1]["prescribed_nodes"]) == 17
    assert run.motion_at("bubble_left", 1.5)["translation"] == pytest.approx((0.035, 0, 0))
    out = tmp_path / "toy.h5"
    summary = run.run(RisingEngine(run), str(out))
    assert summary["status"] == "complete" and summary["engine"] == "toy" and summary["steps"] == 5
    assert summary["newton_iterations_mean"] == 2
    with h5py.File(out, "r") as f:
        assert f.attrs["engine"] == "toy" and f.attrs["engine_version"] == "Toy 1.0"
        engine = json.loads(f.attrs["engine_json"])
        assert engine["parameters"] == {"lift_per_step": 0.001} and json.loads(f.attrs["solver_json"]) == engine["parameters"]
        assert f.attrs["frame_count"] == 6
        rest = f["bodies/teddy/rest_vertices"][:]
        assert np.allclose(rest, run.bodies[0]["rest"])
        assert np.allclose(f["bodies/teddy/positions"][-1], rest + [0, 0, 0.005])
        pairs = [tuple(p) for p in f["contact/pairs"][:]]
        assert sorted(pairs) == [(0, 1), (0, 2)]
        k = pairs.index((0, 2))  # given as (bubble_right, teddy): stored turned, on the teddy
        assert np.allclose(f["contact/normal_force"][-1, k], [0, 0, 1.0])
        assert f["contact/pair_count"][-1, k] == 4
    assert eipc.certify(str(out))["summary"]["frames"] == 6


def test_a_solver_failure_keeps_an_incomplete_trajectory(tmp_path):
    run = eipc.PeerRun(TEDDY, dt=0.02, duration=0.1)
    out = tmp_path / "toy.h5"
    summary = run.run(RisingEngine(run, fail_at=3), str(out))
    assert summary["status"] == "incomplete" and "toy blew up" in summary["reason"]
    with h5py.File(out, "r") as f:
        assert f.attrs["status"] == "incomplete" and f.attrs["frame_count"] == 3


def test_bad_input_is_refused(tmp_path):
    with pytest.raises(eipc.InputError, match="youngs"):
        eipc.PeerRun(TEDDY, set=["bodies.teddy.material.youngs=-1"])
    run = eipc.PeerRun(TEDDY, dt=0.02, duration=0.04)

    class WrongShape(RisingEngine):
        def positions(self):
            return [x[:-1] for x in self.x]

    with pytest.raises(eipc.InputError, match="vertices"):
        run.run(WrongShape(run), str(tmp_path / "wrong.h5"))  # leaves wrong.h5.partial, as any unfinished run
