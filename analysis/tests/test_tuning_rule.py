"""The one tuning rule (analysis/tuning_rule.py) on synthetic runs:
`/usr/bin/python3 -m pytest -q analysis/tests/test_tuning_rule.py` (ctest: tuning_rule)."""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from tuning_rule import criteria, rank, succeeds  # noqa: E402

TEDDY, CUBE, FINRAY = "bubble_grasp_teddy", "cube_squeeze", "finray_plate_rack"
REF = 0.230  # eipc's reference held lift on the teddy (m), made up for the tests


def run(name, lift=REF, intersecting=0, depth=0.0, wall=1.0, cpu=1.0, status="complete", in_slot=None,
        place_error=None):
    return dict(name=name, lift=lift, intersecting=intersecting, depth=depth, wall=wall, cpu=cpu, status=status,
                in_slot=in_slot, place_error=place_error)


def names(runs, scene=TEDDY, reference=REF):
    return [r["name"] for r in rank(runs, scene, reference)]


def test_teddy_lift_tolerance_is_20_mm_either_side():
    assert succeeds(run("a", lift=REF + 0.0199), TEDDY, REF)
    assert succeeds(run("a", lift=REF - 0.0199), TEDDY, REF)
    assert not succeeds(run("a", lift=REF + 0.0201), TEDDY, REF)  # thrown higher is no better
    assert not succeeds(run("a", lift=REF - 0.0201), TEDDY, REF)


def test_cube_tolerance_is_the_same_share_of_its_30_mm_command():
    assert succeeds(run("a", lift=0.0323), CUBE, 0.030)
    assert not succeeds(run("a", lift=0.0325), CUBE, 0.030)


def test_one_intersecting_frame_or_an_incomplete_run_fails():
    assert not succeeds(run("a", intersecting=1, depth=1e-6), TEDDY, REF)
    assert not succeeds(run("a", status="incomplete"), TEDDY, REF)
    assert not succeeds(run("a", intersecting=None), TEDDY, REF)  # not certified: not intersection-free


def test_without_a_lift_or_a_reference_the_lift_is_not_met():
    assert not criteria(run("a", lift=None), TEDDY, REF)["lift"]
    assert not criteria(run("a", lift=math.nan), TEDDY, REF)["lift"]
    assert not criteria(run("a"), TEDDY, None)["lift"]


def test_finray_needs_the_plate_in_its_slot_and_ignores_the_lift():
    assert succeeds(run("a", lift=None, in_slot=True), FINRAY)
    assert not succeeds(run("a", lift=REF, in_slot=False), FINRAY)
    assert not succeeds(run("a", in_slot=True, intersecting=3), FINRAY)


def test_successful_runs_rank_by_wall_time_alone():
    # The slower one lifts exactly eipc's height; the faster one 19 mm off: time decides.
    runs = [run("slow, exact", wall=2.0), run("fast, 19 mm off", lift=REF + 0.019, wall=1.0)]
    assert names(runs) == ["fast, 19 mm off", "slow, exact"]
    # Wall, not CPU: a run that waited on the disk or a second thread is still the slower one.
    runs = [run("less cpu, more wall", wall=1.5, cpu=1.0), run("more cpu, less wall", wall=1.0, cpu=1.8)]
    assert names(runs) == ["more cpu, less wall", "less cpu, more wall"]


def test_any_success_beats_any_failure_however_fast():
    runs = [run("fast, one frame", intersecting=1, depth=1e-5, wall=0.1), run("slow, clear", wall=50.0)]
    assert names(runs) == ["slow, clear", "fast, one frame"]


def test_cpu_breaks_a_wall_tie_and_untimed_successes_come_after_timed_ones():
    runs = [run("untimed", wall=None, cpu=None), run("more cpu", wall=1.0, cpu=1.5), run("less cpu", wall=1.0, cpu=1.1),
            run("failed", lift=0.0)]
    assert names(runs) == ["less cpu", "more cpu", "untimed", "failed"]


def test_failures_rank_by_criteria_missed_then_lift_error_then_frames_then_depth():
    runs = [run("two missed", lift=0.0, intersecting=5, depth=1e-3, wall=0.5),
            run("lift 25 mm off", lift=REF - 0.025, wall=9.0),
            run("lift 30 mm off", lift=REF + 0.030, wall=0.1),
            run("3 frames", intersecting=3, depth=1e-4),
            run("2 frames, deep", intersecting=2, depth=2e-3),
            run("2 frames, shallow", intersecting=2, depth=1e-4)]
    # One criterion missed each for the middle four: a closer lift first (the two intersecting
    # runs lift exactly, error 0), then fewer frames, then the shallower.
    assert names(runs) == ["2 frames, shallow", "2 frames, deep", "3 frames", "lift 25 mm off", "lift 30 mm off",
                           "two missed"]


def test_a_lift_within_the_tolerance_is_as_close_as_any():
    # The towel pick in MuJoCo: every run lifts within the tolerance and intersects; the one
    # with fewer intersecting frames is the closer, however near eipc's lift the other ends.
    runs = [run("exact lift, 99 frames", intersecting=99, depth=7e-3),
            run("15 mm off, 23 frames", lift=REF - 0.015, intersecting=23, depth=6e-4)]
    assert names(runs) == ["15 mm off, 23 frames", "exact lift, 99 frames"]


def test_finray_failures_rank_by_placement_then_frames_then_depth():
    # As a lift error does on the lift tasks, the placement error comes before the frames: a plate
    # placed with intersections is closer than one left 20 mm from its slot without any.
    runs = [run("not placed", in_slot=False, place_error=0.02),
            run("placed, 4 frames", in_slot=True, intersecting=4, depth=1e-4),
            run("placed, 1 frame", in_slot=True, intersecting=1, depth=5e-4),
            run("incomplete, not placed", in_slot=False, status="incomplete")]
    assert names(runs, FINRAY, None) == ["placed, 1 frame", "placed, 4 frames", "not placed", "incomplete, not placed"]


def test_an_unplaced_plate_ranks_by_how_far_it_ended_from_the_slot():
    # The gap found on FinRay: a plate flung 32 m away intersects in fewer frames, but is not closer.
    runs = [run("flung", in_slot=False, intersecting=35, place_error=32.0),
            run("beside the slot", in_slot=False, intersecting=120, place_error=0.02),
            run("placed", in_slot=True, intersecting=190, place_error=0.001),
            run("placed, fewer frames", in_slot=True, intersecting=50, place_error=0.004)]
    assert names(runs, FINRAY, None) == ["placed, fewer frames", "placed", "beside the slot", "flung"]
