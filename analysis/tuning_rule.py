"""The one tuning rule every engine's search keeps its configuration by, eipc's included
(docs/peers.md, "One tuning rule"; issue 58).

A run succeeds when it is complete, every stored frame certifies intersection-free, and it
does the scene's task:
  - a lift task (the teddy grasp, the cube squeeze, the towel pick): the object's held lift (its rise from the
    first frame to the end of the hold window) within 8% of the commanded lift (LIFT_TOLERANCE:
    20 mm on the teddy) of eipc's reference held lift;
  - the FinRay task: the plate rests in the scene's target slot at the end.

Among successful runs the kept one has the least wall time (CPU time is reported beside,
and breaks a tie); a successful run without a believable wall time ranks after every timed
one. Unsuccessful runs rank after every successful one, by how close they came: fewer
criteria missed, then, for a lift outside the tolerance, the smaller lift error (lift tasks) or,
for a plate not in its slot, the placement error (the FinRay task) (a met task is as close as any),
then fewer intersecting frames, then the smaller certified depth.

A run here is a dict with: status ("complete" or anything else), intersecting (frames with
certified intersection), depth (deepest certified penetration, m), lift (held lift, m; lift
tasks), in_slot (bool; the FinRay task), place_error (the plate's centroid at the end from the
target slot's centre, horizontally, m; the FinRay task: a plate flung away is far, not close),
wall and cpu (seconds, None when not believable).
"""
import math

# Commanded lift of each scene's object (m): its prescribed fingers rise this far.
COMMANDED_LIFT = {"cube_squeeze": 0.03, "bubble_grasp_teddy": 0.25, "finray_plate_rack": 0.2, "towel_pick": 0.2}
# Issue 58's target, "lift within 20 mm of eipc's" on the teddy's 250 mm, as a share of the
# command so the 30 mm cube squeeze gets the same strictness (2.4 mm).
LIFT_TOLERANCE = 0.08
TASKS = {"cube_squeeze": "lift", "bubble_grasp_teddy": "lift", "finray_plate_rack": "place", "towel_pick": "lift"}


def criteria(run, scene, reference_lift=None):
    """The rule's criteria of one run: {name: met}."""
    met = {"complete": run.get("status") == "complete",
           "intersection-free": run.get("intersecting") == 0}
    if TASKS[scene] == "lift":
        met["lift"] = lift_error(run, reference_lift) <= LIFT_TOLERANCE * COMMANDED_LIFT[scene]
    else:
        met["placed"] = bool(run.get("in_slot"))
    return met


def lift_error(run, reference_lift):
    """|held lift - eipc's reference held lift| (m); infinite without a lift or a reference."""
    lift = run.get("lift")
    if lift is None or reference_lift is None or not math.isfinite(lift):
        return math.inf
    return abs(lift - reference_lift)


def succeeds(run, scene, reference_lift=None):
    return all(criteria(run, scene, reference_lift).values())


def _seconds(x):
    return math.inf if x is None else x


def rank_key(run, scene, reference_lift=None):
    """Sort key of the rule: smaller is better (module docstring)."""
    met = criteria(run, scene, reference_lift)
    if all(met.values()):
        return (0, _seconds(run.get("wall")), _seconds(run.get("cpu")))
    # A met task is as close as any (a lift within the tolerance, a placed plate); a missed one
    # by how far it came from it.
    if TASKS[scene] == "lift":
        closeness = 0.0 if met["lift"] else lift_error(run, reference_lift)
    else:
        closeness = 0.0 if met["placed"] else _seconds(run.get("place_error"))
    return (1, sum(not m for m in met.values()), closeness, _seconds(run.get("intersecting")),
            _seconds(run.get("depth")))


def rank(runs, scene, reference_lift=None):
    """The runs best first; the first is the kept configuration."""
    return sorted(runs, key=lambda r: rank_key(r, scene, reference_lift))
