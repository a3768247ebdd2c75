"""eipc-drake: an eipc scene run in Drake (pydrake), written as an eipc trajectory.

Drake is the paper's baseline (issue 57). This driver sets the scene up the way Drake's
own example `examples/multibody/deformable/bubble_gripper.cc` (Drake v1.51.1) sets up the
bubble-gripper grasp, and lets the peers' run loop of the eipc module (eipc.PeerRun, the
same C++ code as eipc-bullet and eipc-mujoco) write the trajectory:

- every elastic body is a Drake FEM deformable body (DeformableModel) on the body's
  full-resolution tet mesh, handed to Drake in memory with eipc's rest vertices (after the
  scene's transform), so Drake's vertices are eipc's, in eipc's order;
- the bodies with prescribed vertices are held, as in the example, by fixed constraints
  (DeformableModel.AddFixedConstraint) to rigid fingers on prismatic joints: a gripper
  body on a PD-driven lift joint, a PD-driven left finger and a right finger coupled to it
  (the example's <drake:mimic>, a coupler constraint); the PD targets follow the scene's
  keyframes (eipc's motion), with the example's gains, masses and zero target velocity;
- the ground is the example's rigid 1 m box with its top at the scene's ground height;
- discrete MultibodyPlant with the example's settings (MultibodyPlantConfig defaults:
  SAP through the "lagged" approximation, near-rigid threshold 1), time step 0.025 s
  unless --dt says otherwise; materials from the example's model files
  (scenarios/assets/drake/*.sdf, scenarios/assets/drake_models/...): Young's modulus,
  Poisson ratio, density and stiffness damping (equal to the scene's), friction and
  Hunt-Crossley dissipation (--materials scene: the scene's friction instead).

Everything is read from the project's files: no Drake package is resolved or downloaded.
Exit codes as the other peers (docs/peers.md): 0 complete, 2 bad input or a scene the
driver cannot map, 3 Drake could not finish (trajectory kept, marked incomplete), 4
internal error. Run through the launcher `eipc-drake` (build/bin), which finds an
interpreter with pydrake and the eipc module.
"""

import argparse
import importlib.metadata
import json
import math
import os
import signal
import sys
import time
import tomllib
import xml.etree.ElementTree as ET

EXIT_OK, EXIT_INPUT, EXIT_FAILED, EXIT_INTERNAL = 0, 2, 3, 4

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
ASSETS = os.path.join(SOURCE_DIR, "scenarios", "assets")
# The example's model files, as copied into the project (Drake's BSD licence beside them).
TEDDY_SDF = os.path.join(ASSETS, "drake", "deformable_teddy.sdf")
BUBBLES_SDF = os.path.join(ASSETS, "drake", "bubbles.sdf")
GRIPPER_SDF = os.path.join(ASSETS, "drake_models", "wsg_50_description", "schunk_wsg_50_deformable_bubble.sdf")
EXAMPLE = "drake v1.51.1 examples/multibody/deformable/bubble_gripper.cc"
DRAKE_NS = "{http://drake.mit.edu}"


class Unsupported(Exception):
    """A scene feature this driver has no Drake model for (exit 2, never dropped silently)."""


# --------------------------------------------------------------------------- options

def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="eipc-drake",
        description="run an eipc scene in Drake and write an eipc trajectory (docs/peers.md)")
    p.add_argument("scene", help="scene file (JSON)")
    p.add_argument("--dt", type=float, default=0.025,
                   help="time step (s), Drake's plant time step; default 0.025, the example's")
    p.add_argument("--duration", type=float, help="simulated duration (s), overrides the scene")
    p.add_argument("--embedding", help="as eipc run; Drake simulates full-resolution meshes only")
    p.add_argument("--out", help="trajectory file (default: <scene name>_drake.h5)")
    p.add_argument("--set", action="append", default=[], help="override a scene field: key.path=value")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--max-wall", type=float, help="stop after this many wall-clock seconds (exit 3)")
    p.add_argument("--threads", type=int, default=1, help="accepted for eipc sweep; Drake runs on one thread")
    p.add_argument("--config", help="read options from a TOML file (keys: the long options)")
    p.add_argument("--contact-approximation", default="lagged", choices=["lagged", "sap", "similar"],
                   help="MultibodyPlantConfig.discrete_contact_approximation (default lagged, the example's)")
    p.add_argument("--near-rigid-threshold", type=float, default=1.0,
                   help="MultibodyPlantConfig.sap_near_rigid_threshold (default 1, the example's)")
    p.add_argument("--materials", default="example", choices=["example", "scene"],
                   help="friction and contact dissipation from the example's model files (default) or the "
                        "scene's friction coefficient on every geometry")
    p.add_argument("--target-velocity", default="zero", choices=["zero", "keyframes"],
                   help="PD target velocity: zero as the example's controller, or the keyframes' velocity")
    p.add_argument("--pd-gains", type=float, nargs=2, metavar=("KP", "KD"),
                   help="PD gains of the lift and finger joints (default: the gripper model's, 1e4 N/m, 1 N s/m)")
    p.add_argument("--ground-resolution-hint", type=float, default=0.01,
                   help="the rigid ground's resolution hint for deformable contact (m; the example's 0.01)")
    first = p.parse_args(argv)
    if first.config:
        try:
            with open(first.config, "rb") as f:
                table = tomllib.load(f)
        except (OSError, tomllib.TOMLDecodeError) as e:
            raise InputProblem(f"{first.config}: {e}")
        known = {a.dest for a in p._actions}
        defaults = {}
        for key, value in table.items():
            dest = key.replace("-", "_")
            if dest not in known or dest in ("scene", "config"):
                raise InputProblem(f"{first.config}: unknown option '{key}'")
            defaults[dest] = value
        p.set_defaults(**defaults)
        return p.parse_args(argv)
    return first


class InputProblem(Exception):
    pass


# --------------------------------------------------------------------------- model files

def read_sdf(path):
    """An SDF file's root element. Drake's parser accepts the drake: prefix undeclared (the
    gripper model has it so), ElementTree does not: it is declared here when missing."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if "xmlns:drake" not in text:
        text = text.replace("<sdf ", f'<sdf xmlns:drake="{DRAKE_NS[1:-1]}" ', 1)
    return ET.fromstring(text)


def example_deformable_properties(sdf_path, link_name):
    """A link's <drake:deformable_properties> and <drake:proximity_properties> in one of the
    example's SDF files."""
    root = read_sdf(sdf_path)
    for link in root.iter("link"):
        if link.get("name") != link_name:
            continue
        out = {"file": os.path.relpath(sdf_path, SOURCE_DIR), "link": link_name}
        props = link.find(f"{DRAKE_NS}deformable_properties")
        for tag in ("youngs_modulus", "poissons_ratio", "stiffness_damping", "mass_damping", "mass_density"):
            e = props.find(f"{DRAKE_NS}{tag}") if props is not None else None
            if e is not None:
                out[tag] = float(e.text)
        prox = link.find(f"collision/{DRAKE_NS}proximity_properties")
        for tag in ("mu_dynamic", "mu_static", "hunt_crossley_dissipation"):
            e = prox.find(f"{DRAKE_NS}{tag}") if prox is not None else None
            if e is not None:
                out[tag] = float(e.text)
        return out
    raise InputProblem(f"{sdf_path}: no link '{link_name}'")


def example_gripper():
    """Masses, inertias, PD gains and the mimic of the example's gripper model."""
    root = read_sdf(GRIPPER_SDF)
    links = {}
    for link in root.iter("link"):
        inertial = link.find("inertial")
        inertia = inertial.find("inertia")
        links[link.get("name")] = {
            "mass": float(inertial.find("mass").text),
            "inertia": [float(inertia.find(k).text) for k in ("ixx", "iyy", "izz")],
        }
    joints = {}
    for joint in root.iter("joint"):
        gains = joint.find(f"{DRAKE_NS}controller_gains")
        mimic = joint.find(f"{DRAKE_NS}mimic")
        joints[joint.get("name")] = {
            "type": joint.get("type"),
            "gains": None if gains is None else [float(gains.get("p")), float(gains.get("d"))],
            "mimic": None if mimic is None else {"joint": mimic.get("joint"),
                                                  "multiplier": float(mimic.get("multiplier")),
                                                  "offset": float(mimic.get("offset"))},
        }
    return {"file": os.path.relpath(GRIPPER_SDF, SOURCE_DIR), "links": links, "joints": joints}


# --------------------------------------------------------------------------- scene -> Drake

def vtk_text(rest, tets, title):
    """A legacy ASCII VTK unstructured grid of tets: how the mesh reaches Drake (in memory)."""
    lines = ["# vtk DataFile Version 2.0", title, "ASCII", "DATASET UNSTRUCTURED_GRID",
             f"POINTS {len(rest)} double"]
    lines += ["%r %r %r" % (float(x), float(y), float(z)) for x, y, z in rest]
    lines.append(f"CELLS {len(tets)} {5 * len(tets)}")
    lines += ["4 %d %d %d %d" % tuple(t) for t in tets]
    lines.append(f"CELL_TYPES {len(tets)}")
    lines += ["10"] * len(tets)
    return "\n".join(lines) + "\n"


def example_role(index_among_fingers):
    """Which of the example's model links a scene body plays: a bubble (the bodies held by
    the fingers) or the teddy (every other body: the example's manipuland)."""
    if index_among_fingers is None:
        return TEDDY_SDF, "teddy"
    # The scene's first finger plays the example's right bubble: the scene's frame is the
    # example's turned by -90 degrees about z, which takes the scene's -x side to the
    # example's +y side, where its right finger is. (Both bubbles have the same properties.)
    return BUBBLES_SDF, ("right", "left")[index_among_fingers]


def gripper_motion(run, fingers):
    """The two fingers' scripted translations split into the example's gripper joints: a
    lift (their common motion) along a fixed axis and a closing motion (half their
    difference) along another, the second finger mirroring the first. Returns (lift_axis,
    close_axis, samples) or raises Unsupported."""
    import numpy as np
    a, b = fingers
    times = [n * run.dt for n in range(run.steps + 1)]
    lift, close = [], []
    for t in times:
        ma, mb = run.motion_at(a["name"], t), run.motion_at(b["name"], t)
        if any(abs(r) > 0 for r in list(ma["rotation_deg"]) + list(mb["rotation_deg"])):
            raise Unsupported(f"body '{a['name']}' or '{b['name']}': a rotating finger motion")
        ta, tb = np.array(ma["translation"]), np.array(mb["translation"])
        lift.append((ta + tb) / 2)
        close.append((ta - tb) / 2)

    def axis(samples, what, default):
        samples = np.array(samples)
        norms = np.linalg.norm(samples, axis=1)
        if norms.max() < 1e-12:
            return np.array(default, float), np.zeros(len(samples))
        u = samples[norms.argmax()] / norms.max()
        off = np.linalg.norm(samples - np.outer(samples @ u, u), axis=1).max()
        if off > 1e-9:
            raise Unsupported(f"bodies '{a['name']}', '{b['name']}': their {what} motion is not along one axis "
                              f"(off by {off:.3g} m); the example's gripper has one lift and one closing joint")
        return u, samples @ u

    lift_axis, lift_q = axis(lift, "common (lift)", [0, 0, 1])
    close_axis, close_q = axis(close, "opposite (closing)", [1, 0, 0])
    return lift_axis, close_axis, times, lift_q, close_q


class DrakeEngine:
    """The scene as a Drake diagram; the engine interface eipc.PeerRun.run() drives."""

    name = "drake"

    def __init__(self, run, opts):
        import numpy as np
        import pydrake
        from pydrake.geometry import (AddContactMaterial, Box, GeometryInstance, InMemoryMesh, Mesh,
                                      ProximityProperties)
        from pydrake.common import MemoryFile
        from pydrake.math import RigidTransform
        from pydrake.multibody.fem import DeformableBodyConfig, MaterialModel
        from pydrake.multibody.plant import (AddMultibodyPlant, CoulombFriction, MultibodyPlantConfig)
        from pydrake.multibody.tree import (PdControllerGains, PrismaticJoint, SpatialInertia, UnitInertia)
        from pydrake.systems.analysis import Simulator
        from pydrake.systems.framework import DiagramBuilder, LeafSystem

        self.np = np
        self.run = run
        self.opts = opts
        self.dt = run.dt
        self.version = f"Drake {importlib.metadata.version('drake')} (pydrake; discrete MultibodyPlant, " \
                       f"SAP '{opts.contact_approximation}', FEM deformables)"
        bodies = run.bodies
        self.bodies = bodies
        scene_mu = run.scene.get("contact", {}).get("friction", 0.0)

        # Which bodies are fingers (prescribed vertices), which are free.
        fingers = [b for b in bodies if b["prescribed_nodes"] and not b["kinematic"]]
        for b in bodies:
            if b["kinematic"]:
                raise Unsupported(f"body '{b['name']}': a kinematic body")
            if b["embedding"] != "full":
                raise Unsupported(f"body '{b['name']}': embedding '{b['embedding']}' (Drake simulates the "
                                  "full-resolution tet mesh)")
            if b["material"]["model"] != "linear_corotated":
                raise Unsupported(f"body '{b['name']}': material model '{b['material']['model']}'")
            if not b["tets"]:
                raise Unsupported(f"body '{b['name']}': a surface-only body")
            if b["prescribed_nodes"] and not b["has_motion"]:
                raise Unsupported(f"body '{b['name']}': prescribed vertices without motion")
        if len(fingers) not in (0, 2):
            raise Unsupported(f"{len(fingers)} bodies with prescribed vertices (the example's gripper has two "
                              "fingers)")

        plant_config = MultibodyPlantConfig(time_step=self.dt,
                                            discrete_contact_approximation=opts.contact_approximation,
                                            sap_near_rigid_threshold=opts.near_rigid_threshold)
        builder = DiagramBuilder()
        plant, scene_graph = AddMultibodyPlant(plant_config, builder)
        plant.mutable_gravity_field().set_gravity_vector(np.array(run.gravity))
        self.plant = plant
        self.parameters_ = {
            "time_step": self.dt,
            "discrete_contact_approximation": opts.contact_approximation,
            "sap_near_rigid_threshold": opts.near_rigid_threshold,
            "materials": opts.materials,
            "target_velocity": opts.target_velocity,
            "config": opts.config,
            "example": EXAMPLE,
        }
        self.mapping_ = []

        # The ground: the example's rigid 1 m box, its top at the scene's ground height.
        self.ground_geometry = None
        if run.ground_height is not None:
            props = ProximityProperties()
            mu = 1.0 if opts.materials == "example" else scene_mu
            AddContactMaterial(friction=CoulombFriction(mu, mu), properties=props)
            props.AddProperty("hydroelastic", "resolution_hint", opts.ground_resolution_hint)
            self.ground_geometry = plant.RegisterCollisionGeometry(
                plant.world_body(), RigidTransform([0, 0, run.ground_height - 0.5]), Box(1, 1, 1), "ground", props)
            self.parameters_["ground"] = {"shape": "box 1 x 1 x 1 m, top at the ground height",
                                          "friction": mu, "resolution_hint": opts.ground_resolution_hint}

        # Deformable bodies on eipc's own rest meshes.
        deformable = plant.mutable_deformable_model()
        self.ids = []
        finger_index = {id(f): i for i, f in enumerate(fingers)}
        for b in bodies:
            sdf, link = example_role(finger_index.get(id(b)))
            example = example_deformable_properties(sdf, link)
            mat = b["material"]
            config = DeformableBodyConfig()
            config.set_material_model(MaterialModel.kLinearCorotated)
            config.set_youngs_modulus(mat["youngs"])
            config.set_poissons_ratio(mat["poisson"])
            config.set_mass_density(mat["density"])
            config.set_stiffness_damping_coefficient(b["rayleigh_beta"])
            config.set_mass_damping_coefficient(0.0)
            differs = {k: (example[k], v) for k, v in (("youngs_modulus", mat["youngs"]),
                                                       ("poissons_ratio", mat["poisson"]),
                                                       ("mass_density", mat["density"]),
                                                       ("stiffness_damping", b["rayleigh_beta"]))
                       if k in example and not math.isclose(example[k], v, rel_tol=1e-12)}
            props = ProximityProperties()
            if opts.materials == "example":
                mu = example.get("mu_dynamic", 1.0)
                AddContactMaterial(friction=CoulombFriction(example.get("mu_static", mu), mu), properties=props)
                if "hunt_crossley_dissipation" in example:
                    props.AddProperty("material", "hunt_crossley_dissipation", example["hunt_crossley_dissipation"])
            else:
                mu = scene_mu
                AddContactMaterial(friction=CoulombFriction(mu, mu), properties=props)
            mesh = Mesh(InMemoryMesh(mesh_file=MemoryFile(vtk_text(b["rest"], b["tets"], b["name"]), ".vtk",
                                                          b["name"] + ".vtk")))
            instance = GeometryInstance(RigidTransform(), mesh, b["name"])
            instance.set_proximity_properties(props)
            # The resolution hint only refines primitive shapes; a tet mesh is taken as it is.
            self.ids.append(deformable.RegisterDeformableBody(instance, config, 1.0))
            self.mapping_.append({
                "body": b["name"],
                "eipc_model": f"{mat['model']}, E {mat['youngs']:g} Pa, nu {mat['poisson']:g}, "
                              f"rho {mat['density']:g}, beta {b['rayleigh_beta']:g} s, {len(b['rest'])} vertices",
                "peer_model": f"Drake FEM deformable body (linear corotated), {len(b['rest'])} vertices, "
                              f"{len(b['tets'])} tets, friction {mu:g}"
                              + (f", Hunt-Crossley {example['hunt_crossley_dissipation']:g} s/m"
                                 if opts.materials == "example" and "hunt_crossley_dissipation" in example else ""),
                "parameters": {"example_link": example, "scene_differs_from_example": differs},
            })

        # The example's gripper: lift joint, a PD-driven finger and a mirrored (coupled) one.
        self.gripper = None
        if fingers:
            self._add_gripper(run, fingers, plant, builder, deformable, Box, RigidTransform, PrismaticJoint,
                              SpatialInertia, UnitInertia, PdControllerGains, LeafSystem)

        plant.Finalize()
        if self.gripper:
            builder.Connect(self.targets.get_output_port(),
                            plant.get_desired_state_input_port(self.gripper["instance"]))
        diagram = builder.Build()
        self.simulator = Simulator(diagram)
        self.plant_context = plant.GetMyContextFromRoot(self.simulator.get_mutable_context())
        self.deformable = plant.deformable_model()
        self.geometry_body = {deformable.GetGeometryId(i): k for k, i in enumerate(self.ids)}
        # Drake keeps the vertices as given: check it, so the trajectory's rows are eipc's.
        for k, b in enumerate(bodies):
            q = self.deformable.GetPositions(self.plant_context, self.ids[k]).T
            rest = np.array(b["rest"])
            if q.shape != rest.shape or np.abs(q - rest).max() > 1e-12:
                raise RuntimeError(f"Drake's vertices of '{b['name']}' are not the scene's")
        self.simulator.Initialize()
        self.step_index = 0
        self.contact_port = plant.get_contact_results_output_port()

    def _add_gripper(self, run, fingers, plant, builder, deformable, Box, RigidTransform, PrismaticJoint,
                     SpatialInertia, UnitInertia, PdControllerGains, LeafSystem):
        np = self.np
        opts = self.opts
        model = example_gripper()
        lift_axis, close_axis, times, lift_q, close_q = gripper_motion(run, fingers)
        kp, kd = opts.pd_gains if opts.pd_gains else model["joints"]["translate_joint"]["gains"]
        finger_gains = opts.pd_gains if opts.pd_gains else model["joints"]["left_finger_sliding_joint"]["gains"]
        mimic = model["joints"]["right_finger_sliding_joint"]["mimic"]

        def inertia(link):
            m = model["links"][link]["mass"]
            ixx, iyy, izz = model["links"][link]["inertia"]
            return SpatialInertia(m, np.zeros(3), UnitInertia(ixx / m, iyy / m, izz / m))

        instance = plant.AddModelInstance("gripper")
        gripper = plant.AddRigidBody("gripper", instance, inertia("gripper"))
        # The fingers' frames coincide with the world's at t = 0, so the scene's rest meshes
        # (in world coordinates) are the bubbles' poses in the fingers' frames.
        a = plant.AddRigidBody("finger_" + fingers[0]["name"], instance, inertia("left_finger"))
        b = plant.AddRigidBody("finger_" + fingers[1]["name"], instance, inertia("right_finger"))
        lift = plant.AddJoint(PrismaticJoint("lift", plant.world_frame(), gripper.body_frame(), lift_axis))
        slide_a = plant.AddJoint(PrismaticJoint("slide_" + fingers[0]["name"], gripper.body_frame(), a.body_frame(),
                                                close_axis))
        slide_b = plant.AddJoint(PrismaticJoint("slide_" + fingers[1]["name"], gripper.body_frame(), b.body_frame(),
                                                close_axis))
        for joint, gains in ((lift, (kp, kd)), (slide_a, finger_gains)):
            act = plant.AddJointActuator(joint.name() + "_actuator", joint)
            act.set_controller_gains(PdControllerGains(p=gains[0], d=gains[1]))
        plant.AddCouplerConstraint(slide_a, slide_b, mimic["multiplier"], mimic["offset"])

        constraints = []
        for finger_body, f in ((a, fingers[0]), (b, fingers[1])):
            constraints.append(self._fix_vertices(f, finger_body, deformable, Box, RigidTransform))

        # PD targets: eipc's keyframes at the step's start time, as the example's controller
        # (a function of the context time, read at the discrete update).
        lift_of = lambda t: float(np.interp(t, times, lift_q))
        close_of = lambda t: float(np.interp(t, times, close_q))
        velocity = self.opts.target_velocity
        dt = self.dt

        class KeyframeTargets(LeafSystem):
            def __init__(self):
                super().__init__()
                self.DeclareVectorOutputPort("desired_state", 4, self.calc)

            def calc(self, context, output):
                t = context.get_time()
                if velocity == "keyframes":
                    v = [(lift_of(t + dt) - lift_of(t)) / dt, (close_of(t + dt) - close_of(t)) / dt]
                else:
                    v = [0.0, 0.0]
                output.SetFromVector([lift_of(t), close_of(t)] + v)

        self.targets = builder.AddSystem(KeyframeTargets())
        self.gripper = {"instance": instance}
        self.parameters_["gripper"] = {
            "model": model["file"],
            "lift_axis": list(lift_axis), "close_axis": list(close_axis),
            "lift_gains": [kp, kd], "finger_gains": list(finger_gains),
            "masses": {k: v["mass"] for k, v in model["links"].items()},
            "coupler": mimic,
            "fixed_vertices": constraints,
            "targets": "the scene's keyframes at the step's start; velocity " + velocity,
        }

    def _fix_vertices(self, f, finger_body, deformable, Box, RigidTransform):
        """Fixed constraints on exactly the body's prescribed vertices: one box around them
        (as the example's box over the bubble's flat face) when it holds no other vertex,
        else one tiny box per vertex."""
        np = self.np
        rest = np.array(f["rest"])
        chosen = np.zeros(len(rest), bool)
        chosen[f["prescribed_nodes"]] = True
        lo, hi = rest[chosen].min(0), rest[chosen].max(0)
        pad = 1e-9
        inside = np.all((rest >= lo - pad) & (rest <= hi + pad), axis=1)
        body_id = self.ids[[b["name"] for b in self.bodies].index(f["name"])]
        if np.array_equal(inside, chosen):
            size = hi - lo + 2 * pad
            deformable.AddFixedConstraint(body_id, finger_body, RigidTransform(), Box(*size),
                                          RigidTransform((lo + hi) / 2))
            return {"body": f["name"], "vertices": int(chosen.sum()), "shape": "one box", "box_size": list(size)}
        others = rest[~chosen]
        for i in np.flatnonzero(chosen):
            gap = np.abs(others - rest[i]).max(1).min() if len(others) else 1.0
            edge = min(1e-6, gap / 4)
            deformable.AddFixedConstraint(body_id, finger_body, RigidTransform(), Box(edge, edge, edge),
                                          RigidTransform(rest[i]))
        return {"body": f["name"], "vertices": int(chosen.sum()), "shape": "one small box per vertex"}

    # ------------------------------------------------------------------ engine interface
    def parameters(self):
        return self.parameters_

    def mapping(self):
        return self.mapping_

    def step(self):
        import eipc
        if STOP:  # a signal arrived: end the run here, its trajectory kept (incomplete)
            raise KeyboardInterrupt(f"interrupted by {STOP[0]}")
        target = (self.step_index + 1) * self.dt
        try:
            self.simulator.AdvanceTo(target)
        except RuntimeError as e:  # Drake's own failures (e.g. the SAP solver not converging)
            raise eipc.SolverFailure(f"Drake: {e}".splitlines()[0])
        self.step_index += 1
        # One discrete update per step (the plant's time step is dt): the state is x_n.
        if self.simulator.get_num_unrestricted_updates() + self.simulator.get_num_discrete_updates() != self.step_index:
            raise RuntimeError(f"Drake took {self.simulator.get_num_unrestricted_updates()} updates in "
                               f"{self.step_index} steps")
        return 1

    def positions(self):
        return [self.np.ascontiguousarray(self.deformable.GetPositions(self.plant_context, i).T) for i in self.ids]

    def contact_forces(self):
        """Per body pair, the force Drake applied on body A (a deformable) from body B, split
        into the part along the contact patch's area-weighted mean normal ('normal') and the
        rest ('friction'); pairs = the patch's polygons. Drake's F_Ac_W is the force on A."""
        np = self.np
        results = self.contact_port.Eval(self.plant_context)
        out = {}
        for k in range(results.num_deformable_contacts()):
            info = results.deformable_contact_info(k)
            a, b = self._geometry_name(info.id_A()), self._geometry_name(info.id_B())
            force = np.array(info.F_Ac_W().translational())
            mesh = info.contact_mesh()
            n = np.zeros(3)
            for f in range(mesh.num_faces()):
                n += mesh.area(f) * np.array(mesh.face_normal(f))
            normal = force @ (n / np.linalg.norm(n)) * (n / np.linalg.norm(n)) if np.linalg.norm(n) > 0 else force
            if self._order(a) > self._order(b):  # one entry per pair: (earlier body, later body or ground)
                a, b, force, normal = b, a, -force, -normal
            key = (a, b)
            entry = out.setdefault(key, {"body_a": a, "body_b": b, "normal": np.zeros(3), "friction": np.zeros(3),
                                         "pairs": 0})
            entry["normal"] += normal
            entry["friction"] += force - normal
            entry["pairs"] += mesh.num_faces()
        return [dict(e, normal=list(e["normal"]), friction=list(e["friction"])) for e in out.values()]

    def _geometry_name(self, geometry):
        """The scene body (or "ground") a Drake geometry belongs to. PeerRun stores a pair
        given with the ground first, or the later body first, as (a, b) with the sign turned."""
        if geometry in self.geometry_body:
            return self.bodies[self.geometry_body[geometry]]["name"]
        if geometry == self.ground_geometry:
            return "ground"
        raise RuntimeError(f"Drake reports contact with geometry {geometry}, which is no scene body")

    def _order(self, name):
        return len(self.bodies) if name == "ground" else [b["name"] for b in self.bodies].index(name)

    def min_distance(self):
        return float("nan")  # Drake does not report the deformable contacts' signed distances to Python


# --------------------------------------------------------------------------- main

STOP = []  # the signal that asked the run to stop (acted on before the next step)


def on_signal(number, frame):
    """First SIGINT/SIGTERM: stop before the next step, so the trajectory is finished
    (incomplete, with the reason, exit 3) wherever Python happened to be; a second one
    interrupts at once."""
    STOP.append(signal.Signals(number).name)
    signal.signal(number, signal.SIG_DFL if number == signal.SIGTERM else signal.default_int_handler)

def print_summary(summary, as_json):
    if as_json:
        print(json.dumps(summary, indent=2))
        return
    reason = summary.get("reason", "")
    print(f"engine            {summary['engine']}")
    print(f"status            {summary['status']}" + (f" ({reason})" if reason else ""))
    print(f"steps             {summary['steps']}")
    print(f"simulated time    {summary['simulated_seconds']:.4f} s")
    print(f"wall time         {summary['wall_seconds']:.3f} s")
    print(f"real-time factor  {summary['real_time_factor']:.3f} (simulated / wall)")
    print(f"solver iterations {summary['newton_iterations_mean']:.2f} per step (max {summary['newton_iterations_max']})")
    print(f"trajectory        {summary['output']}")


def main(argv):
    try:
        opts = parse_args(argv)
    except InputProblem as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_INPUT
    try:
        import eipc
    except ImportError as e:
        print(f"error: the eipc Python module is not importable ({e}); build it (EIPC_TARGETS=eipc_python "
              "ci/build build) and run eipc-drake from the build's bin/", file=sys.stderr)
        return EXIT_INPUT
    try:
        import pydrake  # noqa: F401
    except ImportError as e:
        print(f"error: pydrake is not importable with {sys.executable} ({e}); ci/setup-deps installs it",
              file=sys.stderr)
        return EXIT_INPUT
    try:
        run = eipc.PeerRun(opts.scene, dt=opts.dt, duration=opts.duration, embedding=opts.embedding, set=opts.set)
        engine = DrakeEngine(run, opts)
    except eipc.InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_INPUT
    except (Unsupported, InputProblem) as e:
        print(f"error: {opts.scene}: {e} cannot be mapped to drake" if isinstance(e, Unsupported)
              else f"error: {e}", file=sys.stderr)
        return EXIT_INPUT
    out = opts.out or f"{run.name}_drake.h5"
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    try:
        summary = run.run(engine, out, max_wall=opts.max_wall, progress=sys.stderr.isatty())
    except eipc.InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_INPUT
    print_summary(summary, opts.json)
    if summary["status"] != "complete":
        print(f"error: drake could not finish: {summary.get('reason', '')}", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except SystemExit:
        raise
    except BaseException as e:  # internal error: exit 4 with the traceback
        import traceback
        traceback.print_exc()
        sys.exit(EXIT_INTERNAL)
