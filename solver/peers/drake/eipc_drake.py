"""eipc-drake: an eipc scene run in Drake (pydrake), written as an eipc trajectory.

Drake is the paper's baseline (issue 57). The peers' run loop of the eipc module
(eipc.PeerRun, the same C++ code as eipc-bullet and eipc-mujoco) writes the trajectory; this
driver builds the scene in Drake (docs/peers.md, "Drake", has the whole mapping):

- elastic bodies are FEM deformable bodies (DeformableModel) on the body's full-resolution
  tet mesh, handed to Drake in memory with eipc's rest vertices, so Drake's vertices are
  eipc's, in eipc's order;
- affine (ABD) bodies are rigid bodies with rigid hydroelastic surfaces (as Drake's own
  plate model); kinematic bodies at rest are welded to the world (from convex pieces when
  the mesh has them beside it, since Drake's rigid-rigid point contact takes convex hulls);
- bodies with prescribed vertices are fingers: on the teddy grasp, Drake's own example
  (examples/multibody/deformable/bubble_gripper.cc, v1.51.1): FEM bubbles fixed to a
  PD-driven gripper (lift joint, a finger and its mimic), the example's gains, masses,
  materials and zero target velocity; otherwise each finger on its own PD joints along the
  scene's motion, either a FEM body fixed to a driven base or (--finger-model rigid, the
  paper's FinRay in Drake) a driven rigid body with compliant hydroelastic contact;
- the ground is the example's 1 m box with its top at the scene's ground height;
- discrete MultibodyPlant with SAP ("lagged" unless --contact-approximation), one plant
  step per scene step.

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
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from python_peer import (InputProblem, Unsupported, check_stop, exit_with, parse_with_config,  # noqa: E402
                         run_peer)


HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
ASSETS = os.path.join(SOURCE_DIR, "scenarios", "assets")
# The example's model files, as copied into the project (Drake's BSD licence beside them).
TEDDY_SDF = os.path.join(ASSETS, "drake", "deformable_teddy.sdf")
BUBBLES_SDF = os.path.join(ASSETS, "drake", "bubbles.sdf")
GRIPPER_SDF = os.path.join(ASSETS, "drake_models", "wsg_50_description", "schunk_wsg_50_deformable_bubble.sdf")
EXAMPLE = "drake v1.51.1 examples/multibody/deformable/bubble_gripper.cc"
DRAKE_NS = "{http://drake.mit.edu}"


# --------------------------------------------------------------------------- options

def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="eipc-drake",
        description="run an eipc scene in Drake and write an eipc trajectory (docs/peers.md)")
    p.add_argument("scene", help="scene file (JSON)")
    p.add_argument("--dt", type=float, default=0.025,
                   help="time step (s), Drake's plant time step; default 0.025, the example's")
    p.add_argument("--duration", type=float, help="simulated duration (s), overrides the scene")
    p.add_argument("--embedding", help="as eipc run (which bodies switch); Drake simulates every FEM body on its "
                                       "full-resolution mesh whatever its embedding (recorded in the mapping)")
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
    p.add_argument("--target-velocity", default="auto", choices=["auto", "zero", "keyframes"],
                   help="PD target velocity: zero as the example's controller, or the keyframes' velocity "
                        "(default auto: zero for the example's gripper, the keyframes' for fingers on their own drives)")
    p.add_argument("--finger-model", default="fem", choices=["fem", "rigid"],
                   help="elastic bodies with prescribed vertices: FEM bodies fixed to driven rigid bodies (default), "
                        "or driven rigid bodies with compliant hydroelastic contact (the paper's FinRay in Drake)")
    p.add_argument("--drive", default="auto", choices=["auto", "example", "per-finger"],
                   help="the example's gripper (two FEM fingers, one lift and one closing axis) when the scene "
                        "allows it (auto), always (example), or every finger on its own PD joints (per-finger)")
    p.add_argument("--drive-stiffness", type=float, default=1e6,
                   help="PD stiffness of the per-finger drives (N/m; critically damped; default 1e6)")
    p.add_argument("--hydroelastic-modulus", type=float,
                   help="hydroelastic modulus of rigid bodies' compliant contact (Pa; default each body's Young's "
                        "modulus)")
    p.add_argument("--ground-modulus", type=float, default=1e7,
                   help="hydroelastic modulus of the ground box (Pa; default 1e7, Drake's default, so the example's "
                        "ground): compliant, so that a rigid body resting on it gets a contact patch, not one point "
                        "(rigid against rigid is point contact); its pressure field spans the box's 0.5 m half-height, "
                        "so a rigid plate sinks 0.2 mm at rest with 1e7, 4 um with 1e9")
    p.add_argument("--point-stiffness", type=float, default=1e6,
                   help="point contact stiffness of rigid bodies and the ground (N/m; default 1e6, Drake's "
                        "DefaultProximityProperties)")
    p.add_argument("--dissipation", type=float, default=50.0,
                   help="Hunt-Crossley dissipation of rigid bodies' and the ground's point contact (s/m; default 50, "
                        "Drake's DefaultProximityProperties)")
    p.add_argument("--resolution-hint", type=float, default=0.005,
                   help="hydroelastic resolution hint of rigid bodies' meshes (m; meshes are used as they are, "
                        "so it only matters for primitives; default 0.005)")
    p.add_argument("--pd-gains", type=float, nargs=2, metavar=("KP", "KD"),
                   help="PD gains of the lift and finger joints (default: the gripper model's, 1e4 N/m, 1 N s/m)")
    p.add_argument("--ground-resolution-hint", type=float, default=0.01,
                   help="the rigid ground's resolution hint for deformable contact (m; the example's 0.01)")
    return parse_with_config(p, argv)


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


def keyframe_targets(times, coordinates, dt, with_velocity, lead=0.0):
    """A system whose output is the PD-controlled joints' desired state [q, v] at the
    context's time plus lead: the scene's keyframes (eipc's motion sampled at every step) for
    each joint coordinate, the velocity zero or the keyframes' forward difference. Read at the
    discrete update: lead 0 gives the step's start (as the example's controller), lead dt the
    step's end, where the step's new state should be (a position-controlled arm's next
    waypoint; with lead 0 the fingers lag one step, 3.5 mm on FinRay's carry)."""
    import numpy as np
    from pydrake.systems.framework import LeafSystem
    series = [np.asarray(c, float) for c in coordinates]

    class KeyframeTargets(LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareVectorOutputPort("desired_state", 2 * len(series), self.calc)

        def calc(self, context, output):
            t = context.get_time() + lead
            q = [float(np.interp(t, times, c)) for c in series]
            v = [(float(np.interp(t + dt, times, c)) - x) / dt for c, x in zip(series, q)] if with_velocity \
                else [0.0] * len(series)
            output.SetFromVector(q + v)

    return KeyframeTargets()


def obj_text(rest, triangles):
    """A Wavefront OBJ of a surface: how a rigid body's surface reaches Drake (in memory)."""
    lines = ["v %r %r %r" % (float(x), float(y), float(z)) for x, y, z in rest]
    lines += ["f %d %d %d" % (a + 1, b + 1, c + 1) for a, b, c in triangles]
    return "\n".join(lines) + "\n"


def read_convex_pieces(path, mesh_name, vertices):
    """The convex pieces of a mesh (docs/peers.md, "Drake"): lists of vertex indices."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        if doc.get("format") != "eipc-convex-pieces" or doc.get("mesh") != mesh_name:
            raise ValueError(f"not the convex pieces of {mesh_name} (format {doc.get('format')!r}, "
                             f"mesh {doc.get('mesh')!r})")
        pieces = [p["vertices"] for p in doc["pieces"]]
        for n, piece in enumerate(pieces):
            if len(piece) < 4 or not all(isinstance(i, int) and 0 <= i < vertices for i in piece):
                raise ValueError(f"pieces[{n}].vertices: needs 4 or more indices in [0, {vertices})")
        return pieces
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise InputProblem(f"{path}: {e}")


def body_roles(bodies, opts):
    """How each scene body is modelled in Drake:
    'fem'         an elastic body: FEM deformable body on its full-resolution tet mesh;
    'fem_finger'  the same, its prescribed vertices held by fixed constraints to a driven rigid body;
    'rigid_finger' an elastic body with prescribed vertices as a driven rigid body with compliant
                  hydroelastic contact (--finger-model rigid: the paper's FinRay in Drake);
    'rigid'       an affine (ABD) body: a free rigid body with compliant hydroelastic contact;
    'fixed'       a kinematic body without motion: welded to the world, rigid hydroelastic surface."""
    roles = []
    for b in bodies:
        model = b["material"]["model"]
        if b["kinematic"]:
            if b["has_motion"]:
                raise Unsupported(f"body '{b['name']}': a moving kinematic body")
            roles.append("fixed")
            continue
        if not b["tets"]:
            raise Unsupported(f"body '{b['name']}': a surface-only body")
        if b["prescribed_nodes"] and not b["has_motion"]:
            raise Unsupported(f"body '{b['name']}': prescribed vertices without motion")
        if model == "abd":
            if b["prescribed_nodes"]:
                raise Unsupported(f"body '{b['name']}': an affine body with prescribed vertices")
            roles.append("rigid")
        elif model != "linear_corotated":
            raise Unsupported(f"body '{b['name']}': material model '{model}'")
        elif b["prescribed_nodes"]:
            roles.append("rigid_finger" if opts.finger_model == "rigid" else "fem_finger")
        else:
            roles.append("fem")
    return roles


class DrakeEngine:
    """The scene as a Drake diagram; the engine interface eipc.PeerRun.run() drives."""

    name = "drake"

    def __init__(self, run, opts):
        import numpy as np
        from pydrake.geometry import AddCompliantHydroelasticProperties, Box
        from pydrake.math import RigidTransform
        from pydrake.multibody.plant import AddMultibodyPlant, MultibodyPlantConfig
        from pydrake.systems.analysis import Simulator
        from pydrake.systems.framework import DiagramBuilder

        self.np = np
        self.run = run
        self.opts = opts
        self.dt = run.dt
        self.bodies = bodies = run.bodies
        self.roles = roles = body_roles(bodies, opts)
        self.scene_mu = run.scene.get("contact", {}).get("friction", 0.0)
        kinds = sorted(set(roles), key=roles.index)
        self.version = f"Drake {importlib.metadata.version('drake')} (pydrake; discrete MultibodyPlant, " \
                       f"SAP '{opts.contact_approximation}', " \
                       + ", ".join({"fem": "FEM deformables", "fem_finger": "FEM fingers",
                                    "rigid_finger": "rigid hydroelastic fingers", "rigid": "rigid bodies",
                                    "fixed": "fixed rigid bodies"}[k] for k in kinds) + ")"

        # The example's gripper when the scene is its task (two FEM fingers closing and
        # lifting along one axis each); otherwise every finger on its own driven joints.
        fingers = [b for b, r in zip(bodies, roles) if r in ("fem_finger", "rigid_finger")]
        self.gripper_motion = None
        if opts.drive in ("auto", "example") and len(fingers) == 2 and set(roles) <= {"fem", "fem_finger"}:
            try:
                self.gripper_motion = gripper_motion(run, fingers)
            except Unsupported:
                if opts.drive == "example":
                    raise
        elif opts.drive == "example":
            raise Unsupported("--drive example: the example's gripper needs exactly two FEM fingers and FEM "
                              "bodies only")
        self.target_velocity = opts.target_velocity if opts.target_velocity != "auto" else \
            ("zero" if self.gripper_motion else "keyframes")
        # Friction and dissipation from the example's files only where the scene is the example's task.
        self.example_materials = opts.materials == "example" and self.gripper_motion is not None

        plant_config = MultibodyPlantConfig(time_step=self.dt,
                                            discrete_contact_approximation=opts.contact_approximation,
                                            sap_near_rigid_threshold=opts.near_rigid_threshold)
        builder = DiagramBuilder()
        plant, _ = AddMultibodyPlant(plant_config, builder)
        plant.mutable_gravity_field().set_gravity_vector(np.array(run.gravity))
        self.plant = plant
        self.parameters_ = {
            "time_step": self.dt,
            "discrete_contact_approximation": opts.contact_approximation,
            "sap_near_rigid_threshold": opts.near_rigid_threshold,
            "materials": "example" if self.example_materials else "scene",
            "finger_model": opts.finger_model,
            "drive": "example gripper" if self.gripper_motion else "per finger",
            "target_velocity": self.target_velocity,
            "config": opts.config,
            "example": EXAMPLE,
        }
        self.mapping_ = [None] * len(bodies)
        self.geometry_body = {}   # Drake geometry id -> scene body index
        self.rigid_body = {}      # scene body index -> Drake rigid body (rigid, rigid_finger)

        # The ground: the example's rigid 1 m box, its top at the scene's ground height.
        self.ground_geometry = None
        if run.ground_height is not None:
            mu = 1.0 if self.example_materials else self.scene_mu
            props = self._contact_properties((mu, mu), point_contact=True)
            AddCompliantHydroelasticProperties(opts.ground_resolution_hint, opts.ground_modulus, props)
            self.ground_geometry = plant.RegisterCollisionGeometry(
                plant.world_body(), RigidTransform([0, 0, run.ground_height - 0.5]), Box(1, 1, 1), "ground", props)
            self.parameters_["ground"] = {"shape": "box 1 x 1 x 1 m, top at the ground height, compliant hydroelastic",
                                          "hydroelastic_modulus": opts.ground_modulus,
                                          "friction": mu, "resolution_hint": opts.ground_resolution_hint,
                                          "point_stiffness": opts.point_stiffness, "dissipation": opts.dissipation}

        self.deformable = plant.mutable_deformable_model()
        self.ids = {}             # scene body index -> DeformableBodyId
        finger_index = {id(f): i for i, f in enumerate(fingers)}
        for k, (b, role) in enumerate(zip(bodies, roles)):
            if role in ("fem", "fem_finger"):
                self._add_fem_body(k, finger_index.get(id(b)) if self.gripper_motion else None)
            elif role == "fixed":
                self._add_fixed_body(k)
            else:
                self._add_rigid_body(k)

        self.targets = []         # (desired-state source, model instance)
        if self.gripper_motion:
            self._add_gripper(fingers, builder)
        else:
            drives = {}
            for k, role in enumerate(roles):
                if role in ("fem_finger", "rigid_finger"):
                    drives[bodies[k]["name"]] = self._add_drive(k, builder)
            if drives:
                self.parameters_["drives"] = drives

        plant.Finalize()
        for source, instance in self.targets:
            builder.Connect(source.get_output_port(), plant.get_desired_state_input_port(instance))
        diagram = builder.Build()
        self.simulator = Simulator(diagram)
        self.plant_context = plant.GetMyContextFromRoot(self.simulator.get_mutable_context())
        self.deformable = plant.deformable_model()
        # Drake keeps the vertices as given: check it, so the trajectory's rows are eipc's.
        for k, x in enumerate(self.positions()):
            rest = np.array(bodies[k]["rest"])
            if x.shape != rest.shape or np.abs(x - rest).max() > 1e-12:
                raise RuntimeError(f"Drake's vertices of '{bodies[k]['name']}' are not the scene's")
        self.simulator.Initialize()
        self.step_index = 0
        self.contact_port = plant.get_contact_results_output_port()

    # ------------------------------------------------------------------ bodies

    def _contact_properties(self, friction, extra=None, point_contact=False):
        """Friction (and extra material properties); with point_contact, the point contact's
        stiffness and Hunt-Crossley dissipation (--point-stiffness, --dissipation: Drake's
        DefaultProximityProperties values, which a plant built without a SceneGraphConfig
        does not apply: without them the plate sank through the ground at 6 cm/s)."""
        from pydrake.geometry import AddContactMaterial, ProximityProperties
        from pydrake.multibody.plant import CoulombFriction
        props = ProximityProperties()
        AddContactMaterial(friction=CoulombFriction(*friction), properties=props,
                           **({"point_stiffness": self.opts.point_stiffness, "dissipation": self.opts.dissipation}
                              if point_contact else {}))
        for name, value in (extra or {}).items():
            props.AddProperty("material", name, value)
        return props

    def _add_fem_body(self, k, example_finger):
        """A FEM deformable body on eipc's rest mesh (the scene's transform applied), so
        Drake's vertices are eipc's, in eipc's order."""
        from pydrake.common import MemoryFile
        from pydrake.geometry import GeometryInstance, InMemoryMesh, Mesh
        from pydrake.math import RigidTransform
        from pydrake.multibody.fem import DeformableBodyConfig, MaterialModel
        b = self.bodies[k]
        mat = b["material"]
        config = DeformableBodyConfig()
        config.set_material_model(MaterialModel.kLinearCorotated)
        config.set_youngs_modulus(mat["youngs"])
        config.set_poissons_ratio(mat["poisson"])
        config.set_mass_density(mat["density"])
        config.set_stiffness_damping_coefficient(b["rayleigh_beta"])
        config.set_mass_damping_coefficient(0.0)
        example, differs, extra = {}, {}, {}
        mu = (self.scene_mu, self.scene_mu)
        if self.gripper_motion is not None:
            sdf, link = example_role(example_finger)
            example = example_deformable_properties(sdf, link)
            differs = {key: (example[key], v) for key, v in (("youngs_modulus", mat["youngs"]),
                                                              ("poissons_ratio", mat["poisson"]),
                                                              ("mass_density", mat["density"]),
                                                              ("stiffness_damping", b["rayleigh_beta"]))
                       if key in example and not math.isclose(example[key], v, rel_tol=1e-12)}
            if self.example_materials:
                dynamic = example.get("mu_dynamic", 1.0)
                mu = (example.get("mu_static", dynamic), dynamic)
                if "hunt_crossley_dissipation" in example:
                    extra["hunt_crossley_dissipation"] = example["hunt_crossley_dissipation"]
        mesh = Mesh(InMemoryMesh(mesh_file=MemoryFile(vtk_text(b["rest"], b["tets"], b["name"]), ".vtk",
                                                      b["name"] + ".vtk")))
        instance = GeometryInstance(RigidTransform(), mesh, b["name"])
        instance.set_proximity_properties(self._contact_properties(mu, extra))
        # The resolution hint only refines primitive shapes; a tet mesh is taken as it is.
        self.ids[k] = self.deformable.RegisterDeformableBody(instance, config, 1.0)
        self.geometry_body[self.deformable.GetGeometryId(self.ids[k])] = k
        self.mapping_[k] = {
            "body": b["name"],
            "eipc_model": self._eipc_model(b),
            "peer_model": f"Drake FEM deformable body (linear corotated), {len(b['rest'])} vertices, "
                          f"{len(b['tets'])} tets, friction {mu[1]:g}"
                          + (f", Hunt-Crossley {extra['hunt_crossley_dissipation']:g} s/m" if extra else ""),
            "parameters": {"example_link": example, "scene_differs_from_example": differs},
        }

    def _add_rigid_body(self, k):
        """A rigid body on its tet mesh's mass properties, its frame the world's at t = 0 (so
        the rest vertices are its body-frame vertices). An affine body's surface is rigid
        hydroelastic (as Drake's own plate model, drake_models/dishes/plate_8in.sdf); a finger
        (--finger-model rigid, the paper's FinRay in Drake) has compliant hydroelastic contact
        on its tet mesh, modulus --hydroelastic-modulus (default its Young's modulus)."""
        from pydrake.common import MemoryFile
        from pydrake.geometry import (AddCompliantHydroelasticProperties, AddRigidHydroelasticProperties,
                                      InMemoryMesh, Mesh)
        from pydrake.math import RigidTransform
        from pydrake.multibody.tree import RotationalInertia, SpatialInertia, default_model_instance
        np = self.np
        b = self.bodies[k]
        mat = b["material"]
        p = self.run.mass_properties(k)  # the C++ peers' rigid_geometry.hpp
        mass, com, inertia = p["mass"], np.array(p["centre"]), np.array(p["inertia"])
        # A driven body has its own model instance: its joints' actuators and desired state.
        instance = self.plant.AddModelInstance("drive_" + b["name"]) if b["prescribed_nodes"] \
            else default_model_instance()
        body = self.plant.AddRigidBody(b["name"], instance, SpatialInertia.MakeFromCentralInertia(
            mass, com, RotationalInertia(*np.diag(inertia), inertia[0, 1], inertia[0, 2], inertia[1, 2])))
        props = self._contact_properties((self.scene_mu, self.scene_mu), point_contact=True)
        if b["prescribed_nodes"]:
            modulus = self.opts.hydroelastic_modulus or mat["youngs"]
            AddCompliantHydroelasticProperties(self.opts.resolution_hint, modulus, props)
            text, kind = vtk_text(b["rest"], b["tets"], b["name"]), ".vtk"
            contact = f"compliant hydroelastic on the {len(b['tets'])}-tet mesh, modulus {modulus:g} Pa"
        else:
            modulus = None
            AddRigidHydroelasticProperties(self.opts.resolution_hint, props)
            text, kind = obj_text(b["rest"], b["surface"]), ".obj"
            contact = f"rigid hydroelastic surface ({len(b['surface'])} triangles; point contact, on its convex " \
                      "hull, against other rigid geometry)"
        mesh = Mesh(InMemoryMesh(mesh_file=MemoryFile(text, kind, b["name"] + kind)))
        self.geometry_body[self.plant.RegisterCollisionGeometry(body, RigidTransform(), mesh, b["name"], props)] = k
        self.rigid_body[k] = body
        self.mapping_[k] = {
            "body": b["name"],
            "eipc_model": self._eipc_model(b),
            "peer_model": f"Drake rigid body, {mass:.6g} kg (its tet mesh at the scene's density), {contact}, "
                          f"friction {self.scene_mu:g}" + (", driven along the scene's motion" if b["prescribed_nodes"]
                                                           else ""),
            "parameters": {"mass": mass, "com": list(com), "hydroelastic_modulus": modulus},
        }

    def _add_fixed_body(self, k):
        """A kinematic body at rest, welded to the world, rigid hydroelastic. Drake's point
        contact (rigid against rigid) takes a mesh's convex hull, so a body with convex pieces
        beside its mesh (<mesh stem>.convex.json, e.g. the dish rack's wire segments) is built
        from them; otherwise from its surface as one mesh."""
        from pydrake.common import MemoryFile
        from pydrake.geometry import AddRigidHydroelasticProperties, Convex, InMemoryMesh, Mesh
        from pydrake.math import RigidTransform
        np = self.np
        b = self.bodies[k]
        props = self._contact_properties((self.scene_mu, self.scene_mu), point_contact=True)
        AddRigidHydroelasticProperties(self.opts.resolution_hint, props)
        mesh_path = os.path.join(os.path.dirname(self.run.path), self.run.scene["bodies"][k]["mesh"])
        pieces_path = os.path.splitext(mesh_path)[0] + ".convex.json"
        rest = np.array(b["rest"], float)
        shapes = []
        if os.path.exists(pieces_path):
            pieces = read_convex_pieces(pieces_path, os.path.basename(mesh_path), len(rest))
            for n, piece in enumerate(pieces):
                points = "".join("v %r %r %r\n" % tuple(map(float, rest[i])) for i in piece)
                shapes.append(Convex(InMemoryMesh(mesh_file=MemoryFile(points, ".obj", f"{b['name']}_{n}.obj"))))
            shape = f"{len(pieces)} convex pieces from {os.path.relpath(pieces_path, SOURCE_DIR)}"
        else:
            shapes.append(Mesh(InMemoryMesh(mesh_file=MemoryFile(obj_text(rest, b["surface"]), ".obj",
                                                                 b["name"] + ".obj"))))
            shape = f"its surface ({len(b['surface'])} triangles; its convex hull in point contact)"
        for n, geometry in enumerate(shapes):
            self.geometry_body[self.plant.RegisterCollisionGeometry(
                self.plant.world_body(), RigidTransform(), geometry, f"{b['name']}_{n}", props)] = k
        self.mapping_[k] = {
            "body": b["name"],
            "eipc_model": "kinematic, at rest",
            "peer_model": f"welded to the world, rigid hydroelastic, {shape}, friction {self.scene_mu:g}",
            "parameters": {},
        }

    def _eipc_model(self, b):
        mat = b["material"]
        return (f"{mat['model']}, E {mat['youngs']:g} Pa, nu {mat['poisson']:g}, rho {mat['density']:g}, "
                f"beta {b['rayleigh_beta']:g} s, embedding {b['embedding']} ({b['num_nodes']} nodes), "
                f"{len(b['rest'])} full-resolution vertices")

    # ------------------------------------------------------------------ fingers

    def _add_gripper(self, fingers, builder):
        """The example's gripper: a PD lift joint, a PD finger and a second finger coupled to
        it (the SDF's mimic), each bubble fixed to its finger."""
        from pydrake.math import RigidTransform  # noqa: F401
        from pydrake.multibody.tree import PdControllerGains, PrismaticJoint, SpatialInertia, UnitInertia
        np = self.np
        opts = self.opts
        plant = self.plant
        model = example_gripper()
        lift_axis, close_axis, times, lift_q, close_q = self.gripper_motion
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
        names = [x["name"] for x in self.bodies]
        constraints = [self._fix_vertices(names.index(f["name"]), carrier)
                       for carrier, f in ((a, fingers[0]), (b, fingers[1]))]
        # PD targets: eipc's keyframes at the step's start time, as the example's controller.
        self.targets.append((builder.AddSystem(keyframe_targets(times, [lift_q, close_q], self.dt,
                                                                self.target_velocity == "keyframes")), instance))
        self.parameters_["gripper"] = {
            "model": model["file"],
            "lift_axis": list(lift_axis), "close_axis": list(close_axis),
            "lift_gains": [kp, kd], "finger_gains": list(finger_gains),
            "masses": {k: v["mass"] for k, v in model["links"].items()},
            "coupler": mimic,
            "fixed_vertices": constraints,
            "targets": "the scene's keyframes at the step's start; velocity " + self.target_velocity,
        }

    def _add_drive(self, k, builder):
        """A finger moved along the scene's motion by PD-driven joints (implicit in SAP), as a
        position-controlled arm moves it: prismatic joints for the translation's moving axes,
        then revolute joints about the body's pivot (eipc's rotation centre, its rest
        centroid) for the rotation's moving Euler angles (R = Rz Ry Rx). The driven body is the
        finger itself (--finger-model rigid) or a base its prescribed vertices are fixed to.
        Gains: stiffness --drive-stiffness (N/m), critically damped for the driven mass;
        rotations with the same natural frequency (stiffness times I / m)."""
        from pydrake.math import RigidTransform
        from pydrake.multibody.tree import (FixedOffsetFrame, PdControllerGains, PrismaticJoint, RevoluteJoint,
                                            SpatialInertia, UnitInertia)
        np = self.np
        plant = self.plant
        b = self.bodies[k]
        times = [n * self.dt for n in range(self.run.steps + 1)]
        motion = [self.run.motion_at(b["name"], t) for t in times]
        translation = np.array([m["translation"] for m in motion])
        rotation = np.radians(np.array([m["rotation_deg"] for m in motion]))
        if k in self.rigid_body:
            driven = self.rigid_body[k]
            instance = driven.model_instance()
            mass = driven.default_mass()
            unit = driven.default_unit_inertia().CalcPrincipalMomentsOfInertia().max()
        else:  # a FEM finger's base: the example's finger link's mass, a 5 cm cube's inertia
            instance = plant.AddModelInstance("drive_" + b["name"])
            mass, unit = 0.05, 0.05 ** 2 / 6
            driven = plant.AddRigidBody("base_" + b["name"], instance,
                                        SpatialInertia(mass, np.zeros(3), UnitInertia.SolidCube(0.05)))
        kp = self.opts.drive_stiffness
        kd = 2 * math.sqrt(kp * mass)
        axes = [(f"{b['name']}_{'xyz'[i]}", i, translation[:, i]) for i in range(3) if np.ptp(translation[:, i]) > 0]
        turns = [(f"{b['name']}_r{'xyz'[i]}", i, rotation[:, i]) for i in (2, 1, 0) if np.ptp(rotation[:, i]) > 0]
        pivot = RigidTransform(np.array(b["pivot"]))
        joints, q = [], []
        parent = plant.world_frame()
        for n, (name, i, values) in enumerate(axes + turns):
            last = n == len(axes) + len(turns) - 1
            revolute = n >= len(axes)
            if n == len(axes):  # the revolute joints turn about the pivot
                parent = plant.AddFrame(FixedOffsetFrame(name + "_pivot", parent, pivot))
            if not last:
                child = plant.AddRigidBody(name + "_link", instance, SpatialInertia.Zero()).body_frame()
            elif revolute:
                child = plant.AddFrame(FixedOffsetFrame(b["name"] + "_pivot", driven.body_frame(), pivot))
            else:
                child = driven.body_frame()
            axis = np.eye(3)[i]
            joint = plant.AddJoint(RevoluteJoint(name, parent, child, axis) if revolute
                                   else PrismaticJoint(name, parent, child, axis))
            scale = unit if revolute else 1.0
            plant.AddJointActuator(name + "_actuator", joint).set_controller_gains(
                PdControllerGains(p=kp * scale, d=kd * scale))
            joints.append(name)
            q.append(values)
            parent = child
        if not joints:  # a motion that never moves: the finger is welded where it is
            plant.WeldFrames(plant.world_frame(), driven.body_frame())
        if k not in self.rigid_body:
            constraint = self._fix_vertices(k, driven)
        else:
            constraint = None
        if joints:
            self.targets.append((builder.AddSystem(keyframe_targets(times, q, self.dt, self.target_velocity == "keyframes",
                                                                    lead=self.dt)), instance))
        return {"joints": joints, "stiffness": kp, "damping": kd, "driven_mass": mass,
                "rotation_gain_scale": unit, "fixed_vertices": constraint,
                "targets": "the scene's keyframes at the step's end; velocity " + self.target_velocity}

    def _prescribed_vertices(self, k):
        """The full-resolution vertices a FEM finger's prescription selects. eipc's
        prescribed_nodes index the body's embedding nodes; on an embedding other than full
        the scene's selection ("all" or a box, docs/scene-format.md) is applied to the
        full-resolution rest vertices, as eipc applies it to the nodes."""
        np = self.np
        b = self.bodies[k]
        if b["embedding"] == "full":
            return b["prescribed_nodes"]
        rest = np.array(b["rest"])
        spec = self.run.scene["bodies"][k]["prescribed"][0]["vertices"]
        if spec == "all":
            return list(range(len(rest)))
        if isinstance(spec, dict) and "box" in spec:
            lo, hi = (np.array(c, float) for c in spec["box"])
            chosen = np.flatnonzero(np.all((rest >= lo) & (rest <= hi), axis=1))
            if not len(chosen):
                raise Unsupported(f"body '{b['name']}': its prescribed box holds no full-resolution vertex")
            return list(chosen)
        raise Unsupported(f"body '{b['name']}': prescribed vertex indices of its '{b['embedding']}' embedding "
                          "(a FEM finger needs full-resolution vertices: a box, \"all\", or --embedding full)")

    def _fix_vertices(self, k, carrier):
        """Fixed constraints on exactly the body's prescribed vertices: one box around them
        (as the example's box over the bubble's flat face) when it holds no other vertex,
        else one tiny box per vertex."""
        from pydrake.geometry import Box
        from pydrake.math import RigidTransform
        np = self.np
        f = self.bodies[k]
        rest = np.array(f["rest"])
        chosen = np.zeros(len(rest), bool)
        chosen[self._prescribed_vertices(k)] = True
        lo, hi = rest[chosen].min(0), rest[chosen].max(0)
        pad = 1e-9
        inside = np.all((rest >= lo - pad) & (rest <= hi + pad), axis=1)
        if np.array_equal(inside, chosen):
            size = hi - lo + 2 * pad
            self.deformable.AddFixedConstraint(self.ids[k], carrier, RigidTransform(), Box(*size),
                                               RigidTransform((lo + hi) / 2))
            return {"body": f["name"], "vertices": int(chosen.sum()), "shape": "one box", "box_size": list(size)}
        others = rest[~chosen]
        for i in np.flatnonzero(chosen):
            gap = np.abs(others - rest[i]).max(1).min() if len(others) else 1.0
            edge = min(1e-6, gap / 4)
            self.deformable.AddFixedConstraint(self.ids[k], carrier, RigidTransform(), Box(edge, edge, edge),
                                               RigidTransform(rest[i]))
        return {"body": f["name"], "vertices": int(chosen.sum()), "shape": "one small box per vertex"}

    # ------------------------------------------------------------------ engine interface
    def parameters(self):
        return self.parameters_

    def mapping(self):
        return self.mapping_

    def step(self):
        import eipc
        check_stop()
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
        np = self.np
        out = []
        for k, b in enumerate(self.bodies):
            if k in self.ids:
                out.append(np.ascontiguousarray(self.deformable.GetPositions(self.plant_context, self.ids[k]).T))
            elif k in self.rigid_body:
                pose = self.plant.EvalBodyPoseInWorld(self.plant_context, self.rigid_body[k])
                out.append(np.ascontiguousarray(np.array(b["rest"]) @ pose.rotation().matrix().T + pose.translation()))
            else:
                out.append(np.array(b["rest"], float))
        return out

    def contact_forces(self):
        """Per body pair, the force Drake applied on the first body from the second, split
        into the part along the contact's normal ('normal': a patch's area-weighted mean
        normal, or the point contact's normal) and the rest ('friction'); pairs = the
        patch's polygons, or 1 per point contact. Drake reports the force on body A of a
        deformable or hydroelastic contact (F_Ac_W), and on body B of a point contact."""
        np = self.np
        results = self.contact_port.Eval(self.plant_context)
        out = {}

        def add(a, b, force, n, pairs):
            n = n / np.linalg.norm(n) if np.linalg.norm(n) > 0 else None
            normal = force @ n * n if n is not None else force
            if self._order(a) > self._order(b):  # one entry per pair: (earlier body, later body or ground)
                a, b, force, normal = b, a, -force, -normal
            entry = out.setdefault((a, b), {"body_a": a, "body_b": b, "normal": np.zeros(3),
                                            "friction": np.zeros(3), "pairs": 0})
            entry["normal"] += normal
            entry["friction"] += force - normal
            entry["pairs"] += pairs

        def patch_normal(mesh):
            return sum((mesh.area(f) * np.array(mesh.face_normal(f)) for f in range(mesh.num_faces())), np.zeros(3))

        for k in range(results.num_deformable_contacts()):
            info = results.deformable_contact_info(k)
            mesh = info.contact_mesh()
            add(self._geometry_name(info.id_A()), self._geometry_name(info.id_B()),
                np.array(info.F_Ac_W().translational()), patch_normal(mesh), mesh.num_faces())
        for k in range(results.num_hydroelastic_contacts()):
            info = results.hydroelastic_contact_info(k)
            surface = info.contact_surface()
            mesh = surface.tri_mesh_W() if surface.is_triangle() else surface.poly_mesh_W()
            add(self._geometry_name(surface.id_M()), self._geometry_name(surface.id_N()),
                np.array(info.F_Ac_W().translational()), patch_normal(mesh), mesh.num_elements()
                if hasattr(mesh, "num_elements") else mesh.num_faces())
        for k in range(results.num_point_pair_contacts()):
            info = results.point_pair_contact_info(k)
            pair = info.point_pair()
            # f_Bc_W is on B; the pair's normal nhat_BA_W points from B into A.
            add(self._geometry_name(pair.id_B), self._geometry_name(pair.id_A),
                np.array(info.contact_force()), np.array(pair.nhat_BA_W), 1)
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

def prepare():
    try:
        import pydrake  # noqa: F401
    except ImportError as e:
        return f"pydrake is not importable with {sys.executable} ({e}); ci/setup-deps installs it"
    return None


def iterations(summary):
    return "solver iterations", f"{summary['newton_iterations_mean']:.2f} per step (max {summary['newton_iterations_max']})"


if __name__ == "__main__":
    exit_with(lambda: run_peer(sys.argv[1:], "drake", parse_args, prepare, DrakeEngine, iterations))
