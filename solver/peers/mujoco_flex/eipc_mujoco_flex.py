"""eipc-mujoco-flex: an eipc scene run in MuJoCo 4 with its own deformables (flex bodies),
written as an eipc trajectory (docs/peers.md, "MuJoCo 4 flex").

eipc-mujoco (C++, Debian's MuJoCo 2.2.2, no flex) makes every elastic body rigid. This driver
uses the pip MuJoCo of the project's .venv and models every elastic body as a 3-D flex on the
body's own full-resolution tet mesh and rest vertices (a shell as a 2-D flex on its triangles),
and lets the peers' run loop of the eipc module (eipc.PeerRun, the same C++ code as eipc-bullet,
eipc-mujoco and eipc-drake) write the trajectory:

- each vertex of an elastic body is a MuJoCo body on three world-axis slide joints with the
  vertex's lumped mass (density x a quarter of its tets' volume; a shell's: x thickness x a
  third of its triangles' area), and the flex joins them with eipc's tets (triangles), listed
  in eipc's vertex order (checked at start);
- its elasticity is MuJoCo's (Saint Venant-Kirchhoff, the only 3-D flex model; a shell's is
  its StVK membrane and hinge bending, elastic2d both, the scene's thickness, half of it the
  contact radius) with the scene's Young's modulus and Poisson ratio, and the scene's Rayleigh
  beta as the flex's Rayleigh damping (both stiffness-proportional, in seconds);
- a body's prescribed vertices are pinned to a finger body (they are vertices of that body,
  as flexcomp's <pin> does): a body on three world-axis slide joints whose PD servos
  (position and velocity actuators) track the prescribed set's keyframed translation, its
  weight compensated (gravcomp); MuJoCo's flex elasticity does not support mocap
  attachments, and slide-joint attachments are its fast Newton path (docs below);
- a motion that turns adds a hinge about the body's pivot per changing Euler angle after the
  finger's slides;
- an affine (abd) body is a free rigid body and a kinematic body at rest static geoms, both from
  eipc-mujoco's convex pieces (PeerRun.convex_pieces) and the tets' mass properties;
- the ground is a plane; friction is the scene's on every flex, geom and the plane.

Every setting has its source in the per-scene settings file (scenarios/peers/
mujoco_flex_<scene>.toml) and in docs/peers.md. Exit codes as the other peers: 0 complete,
2 bad input or a scene the driver cannot map (naming the body and feature), 3 MuJoCo could
not finish (trajectory kept, marked incomplete), 4 internal error. Run through the launcher
`eipc-mujoco-flex` (build/bin), which finds an interpreter with mujoco and the eipc module.
"""

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from python_peer import (InputProblem, Unsupported, check_stop, exit_with, parse_with_config,  # noqa: E402
                         run_peer)

NAME = "mujoco-flex"


# --------------------------------------------------------------------------- options

def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="eipc-mujoco-flex",
        description="run an eipc scene in MuJoCo 4 with flex deformables and write an eipc trajectory "
                    "(docs/peers.md, 'MuJoCo 4 flex')")
    p.add_argument("scene", help="scene file (JSON)")
    p.add_argument("--dt", type=float, help="scene time step (s), overrides the scene")
    p.add_argument("--duration", type=float, help="simulated duration (s), overrides the scene")
    p.add_argument("--embedding", help="as eipc run; flex bodies are the full-resolution meshes only")
    p.add_argument("--out", help="trajectory file (default: <scene name>_mujoco-flex.h5)")
    # Repeatable, and several values at once (a settings file's or a search grid's list).
    p.add_argument("--set", action="extend", nargs="+", default=[], help="override a scene field: key.path=value")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--max-wall", type=float, help="stop after this many wall-clock seconds (exit 3)")
    p.add_argument("--threads", type=int, default=1, help="accepted for eipc sweep; MuJoCo runs on one thread")
    p.add_argument("--config", help="read options from a TOML file (keys: the long options)")
    p.add_argument("--max-substep", type=float, default=0.0,
                   help="longest MuJoCo step (s): each scene step is split into equal MuJoCo steps no longer than "
                        "this (default 0: one MuJoCo step per scene step)")
    p.add_argument("--integrator", default="discrete", choices=["discrete", "Euler"],
                   help="option/integrator (default discrete: the only one that integrates flex elasticity "
                        "implicitly)")
    p.add_argument("--solver", default="Newton", choices=["Newton", "CG"], help="option/solver (PGS has no flex)")
    p.add_argument("--tolerance", type=float, default=1e-6, help="option/tolerance (default 1e-6)")
    p.add_argument("--iterations", type=int, default=100, help="option/iterations (default 100, MuJoCo's)")
    p.add_argument("--ls-iterations", type=int, default=50, help="option/ls_iterations (default 50, MuJoCo's)")
    p.add_argument("--cone", default="elliptic", choices=["elliptic", "pyramidal"], help="option/cone")
    p.add_argument("--impratio", type=float, default=10.0, help="option/impratio (default 10)")
    p.add_argument("--margin", type=float, default=0.0,
                   help="contact margin (m) of every contact pair (each flex and the ground get half: MuJoCo adds "
                        "the two sides' margins)")
    p.add_argument("--solref", type=float, nargs=2, default=[0.02, 1.0], metavar=("TIMECONST", "DAMPRATIO"),
                   help="contact solref of every flex and the ground (default 0.02 1, MuJoCo's)")
    p.add_argument("--solimp", type=float, nargs=5, default=[0.9, 0.95, 0.001, 0.5, 2.0],
                   metavar=("DMIN", "DMAX", "WIDTH", "MID", "POWER"),
                   help="contact solimp (default 0.9 0.95 0.001 0.5 2, MuJoCo's)")
    p.add_argument("--selfcollide", default="auto", choices=["none", "narrow", "bvh", "sap", "auto"],
                   help="flex/contact/selfcollide (default auto, MuJoCo's)")
    p.add_argument("--activelayers", type=int, default=1, help="flex/contact/activelayers (default 1, MuJoCo's)")
    p.add_argument("--servo-kp", type=float, nargs=3, default=[1e4, 1e4, 1e4], metavar=("KX", "KY", "KZ"),
                   help="finger servos' position gains (N/m) per world axis")
    p.add_argument("--servo-damping-ratio", type=float, default=1.0,
                   help="finger servos' damping ratio: velocity gain 2 z sqrt(kp m)")
    p.add_argument("--servo-kp-rotation", type=float, default=0.0,
                   help="finger servos' gain (N m/rad) on each hinge a turning motion adds (default 0: the "
                        "translation gains' natural frequency, mean kp x the finger's inertia / its mass)")
    p.add_argument("--piece-size", type=float, default=0.015,
                   help="grid cell (m) of the convex pieces of rigid and static bodies (as eipc-mujoco's)")
    p.add_argument("--finger-mass", type=float, default=0.2, help="mass of each finger body (kg)")
    p.add_argument("--force-limit", type=float, default=0.0,
                   help="finger servos' force range +-F (N) per axis, position and velocity actuator each "
                        "(actuator/forcerange; default 0: unlimited)")
    p.add_argument("--memory", default="",
                   help="size/memory, MuJoCo's arena for contacts and constraints (e.g. 200M; default: MuJoCo's)")
    p.add_argument("--mjcf-out", help="also write the composed MJCF model to this file")
    opts = parse_with_config(p, argv)
    for name in ("max_substep", "margin", "finger_mass", "force_limit", "tolerance", "servo_kp_rotation"):
        if getattr(opts, name) < 0:
            raise InputProblem(f"--{name.replace('_', '-')}: must not be negative")
    if opts.finger_mass <= 0:
        raise InputProblem("--finger-mass: must be positive (the finger body carries slide joints)")
    if opts.piece_size <= 0:
        raise InputProblem("--piece-size: must be positive")
    if any(k <= 0 for k in opts.servo_kp):
        raise InputProblem("--servo-kp: gains must be positive")
    return opts


# --------------------------------------------------------------------------- scene -> MJCF

def num(x):
    return repr(float(x))


def nums(values):
    return " ".join(num(x) for x in values)


def lumped_masses(np, rest, tets, density):
    """Each vertex's mass: density x a quarter of the volume of every tet it belongs to."""
    x = rest[tets]
    vol = np.abs(np.einsum("ij,ij->i", np.cross(x[:, 1] - x[:, 0], x[:, 2] - x[:, 0]), x[:, 3] - x[:, 0])) / 6
    m = np.zeros(len(rest))
    np.add.at(m, tets.ravel(), np.repeat(vol * density / 4, 4))
    return m, vol.sum()


def shell_lumped_masses(np, rest, triangles, density, thickness):
    """A shell's: density x thickness x a third of the area of every triangle a vertex belongs
    to (eipc's shell_lumped_mass); returns the masses and the shell's volume."""
    x = rest[triangles]
    area = np.linalg.norm(np.cross(x[:, 1] - x[:, 0], x[:, 2] - x[:, 0]), axis=1) / 2
    m = np.zeros(len(rest))
    np.add.at(m, triangles.ravel(), np.repeat(area * thickness * density / 3, 3))
    return m, area.sum() * thickness


def is_shell(body):
    return body["material"]["model"] == "stvk_shell"


class FlexEngine:
    """The scene as an MJCF model of flex bodies; the engine interface eipc.PeerRun.run() drives."""

    name = NAME

    def __init__(self, run, opts):
        import numpy as np
        import mujoco

        self.np, self.mj = np, mujoco
        self.run, self.opts = run, opts
        self.bodies = run.bodies
        self.rest = [np.array(b["rest"], float) for b in self.bodies]  # once: a stored frame needs the rigid ones
        h = run.dt
        self.substeps = max(1, math.ceil(h / opts.max_substep - 1e-9)) if opts.max_substep > 0 else 1
        self.h = h / self.substeps
        self.version = f"MuJoCo {mujoco.mj_versionString()} (pip; flex bodies, integrator {opts.integrator}, " \
                       f"solver {opts.solver})"
        scene_bodies = run.scene["bodies"]
        self.mu = float(run.scene.get("contact", {}).get("friction", 0.0))

        self.roles = [self._role(b) for b in self.bodies]
        # A finger turns about the body's pivot on hinge joints for every Euler angle its motion
        # changes (R = Rz Ry Rx), after its three world-axis slides.
        # Over the scene's keyframes, not only the run's steps: a shortened run has the same model.
        self.turns = {}
        for b, sb in zip(self.bodies, scene_bodies):
            if b["prescribed_nodes"]:
                angles = np.array([[0.0, 0.0, 0.0]] + [key["rotation_deg"] for group in sb.get("prescribed", [])
                                                       for key in group.get("motion", []) if "rotation_deg" in key])
                self.turns[b["name"]] = [i for i in (2, 1, 0) if np.ptp(angles[:, i]) > 0]
        self.initial_velocity = [np.array(sb.get("velocity", [0, 0, 0]), float) for sb in scene_bodies]

        self.xml = self._compose_mjcf()
        if opts.mjcf_out:
            with open(opts.mjcf_out, "w", encoding="utf-8") as f:
                f.write(self.xml)
        try:
            self.model = mujoco.MjModel.from_xml_string(self.xml)
        except ValueError as e:
            raise Unsupported(f"the composed model (MuJoCo: {str(e).strip()})")
        self.data = mujoco.MjData(self.model)
        self.scratch = mujoco.MjData(self.model)
        m = self.model
        # Which flex or body is which scene body: a flex's vertex order must be eipc's.
        self.flex_of, self.rigid_of, self.body_of_flex, self.body_of_geom = {}, {}, {}, {}
        for k, b in enumerate(self.bodies):
            if self.roles[k] == "flex":
                f = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_FLEX, b["name"])
                elements = b["surface"] if is_shell(b) else b["tets"]
                if f < 0 or m.flex_vertnum[f] != len(b["rest"]) or m.flex_elemnum[f] != len(elements):
                    raise RuntimeError(f"MuJoCo's flex '{b['name']}' does not have the body's vertices and elements")
                self.flex_of[k] = f
                self.body_of_flex[f] = k
            elif self.roles[k] == "rigid":
                self.rigid_of[k] = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, b["name"])
        for g in range(m.ngeom):
            name = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_GEOM, g) or ""
            if name.startswith("piece_"):
                self.body_of_geom[g] = int(name.split("_")[1])
        self.ground_geom = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_GEOM, "ground")
        self.actuators = {}
        for b in self.fingers:
            axes = ["x", "y", "z"] + ["r" + "xyz"[i] for i in self.turns[b["name"]]]
            self.actuators[b["name"]] = [[mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_ACTUATOR, f"{b['name']}_{kind}{a}")
                                          for a in axes] for kind in "pv"]
        # Initial velocities of the free vertices and rigid bodies (the finger bodies start at
        # rest, as the keyframes do).
        for k, b in enumerate(self.bodies):
            v = self.initial_velocity[k]
            if not v.any():
                continue
            if self.roles[k] == "rigid":
                dof = m.body_dofadr[self.rigid_of[k]]
                self.data.qvel[dof:dof + 3] = v
                continue
            for i in range(len(b["rest"])):
                if i in self.pinned[k]:
                    continue
                body = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, f"{b['name']}_v{i}")
                dof = m.body_dofadr[body]
                self.data.qvel[dof:dof + 3] = v
        self._drive(0.0)
        mujoco.mj_forward(m, self.data)
        self.state_ready = False
        for k, x in enumerate(self._positions(self.data)):
            rest = self.rest[k]
            if x.shape != rest.shape or np.abs(x - rest).max() > 1e-12:
                raise RuntimeError(f"MuJoCo's vertices of '{self.bodies[k]['name']}' are not the scene's (off by "
                                   f"{np.abs(x - rest).max():.3g} m)")
        self.warnings = [int(w.number) for w in self.data.warning]
        self.step_index = 0
        self.contacts_peak = 0
        self.constraints_peak = 0
        self.solver_iterations_peak = 0

    # ------------------------------------------------------------------ model
    @staticmethod
    def _role(b):
        """How a scene body is modelled: 'flex' (an elastic body, 3-D or a 2-D shell, its
        prescribed vertices pinned to a servo-driven finger), 'rigid' (an affine body: a free
        rigid body) or 'static' (a kinematic body at rest: geoms of the world body)."""
        name = b["name"]
        if b["kinematic"]:
            if b["has_motion"]:
                raise Unsupported(f"body '{name}': a moving kinematic body")
            return "static"
        if not b["tets"] and not is_shell(b):
            raise Unsupported(f"body '{name}': a surface-only body (a 3-D flex or a rigid body needs tets)")
        if b["material"]["model"] == "abd":
            if b["prescribed_nodes"]:
                raise Unsupported(f"body '{name}': an affine body with prescribed vertices")
            return "rigid"
        if b["embedding"] != "full":
            raise Unsupported(f"body '{name}': embedding '{b['embedding']}' (a flex is the full-resolution mesh)")
        if b["material"]["model"] not in ("linear_corotated", "neo_hookean", "stvk_shell"):
            raise Unsupported(f"body '{name}': material model '{b['material']['model']}' (MuJoCo's flex is an "
                              "elastic FEM body, Saint Venant-Kirchhoff)")
        if b["prescribed_nodes"] and not b["has_motion"]:
            raise Unsupported(f"body '{name}': prescribed vertices without motion")
        if b["prescribed_nodes"] and len(b["prescribed_nodes"]) == len(b["rest"]):
            raise Unsupported(f"body '{name}': every vertex prescribed (a rigid flex)")
        return "flex"

    def _compose_mjcf(self):
        np, o, run = self.np, self.opts, self.run
        # MuJoCo adds the two sides' margins for a flex contact (flex-flex and flex-geom,
        # src/engine/engine_collision_driver.c), so each side gets half the pair's margin; a
        # pair of geoms (a rigid body against the ground or a static body) takes the larger
        # of its two, so it gets half.
        self.contact = (f'margin="{num(o.margin / 2)}" solref="{nums(o.solref)}" solimp="{nums(o.solimp)}" '
                        f'condim="3" friction="{num(self.mu)} 0.005 0.0001"')
        self.world, self.flexes, self.actuators_xml, self.assets = [], [], [], []
        if run.ground_height is not None:
            self.world.append(f'<geom name="ground" type="plane" size="0 0 1" pos="0 0 {num(run.ground_height)}" '
                              f'{self.contact}/>')
        self.fingers, self.pinned, self.mapping_, self.centres = [], [], [], {}
        for k, b in enumerate(self.bodies):
            self.pinned.append(set(int(i) for i in b["prescribed_nodes"]))
            if self.roles[k] == "flex":
                self._add_flex(k)
            else:
                self._add_rigid(k)
        size = f'<size memory="{o.memory}"/>' if o.memory else ""
        assets = ('  <asset>\n    ' + "\n    ".join(self.assets) + '\n  </asset>\n') if self.assets else ""
        return (
            '<mujoco model="eipc">\n'
            '  <compiler angle="radian"/>\n'
            f'  <option timestep="{num(self.h)}" gravity="{nums(run.gravity)}" integrator="{o.integrator}" '
            f'cone="{o.cone}" impratio="{num(o.impratio)}" solver="{o.solver}" tolerance="{num(o.tolerance)}" '
            f'iterations="{o.iterations}" ls_iterations="{o.ls_iterations}"/>\n'
            f'  {size}\n' + assets +
            '  <worldbody>\n    ' + "\n    ".join(self.world) + '\n  </worldbody>\n'
            + ('  <deformable>\n    ' + "\n    ".join(self.flexes) + '\n  </deformable>\n' if self.flexes else "")
            + ('  <actuator>\n    ' + "\n    ".join(self.actuators_xml) + '\n  </actuator>\n'
               if self.actuators_xml else "")
            + '</mujoco>\n')

    def _add_finger(self, b):
        """The finger body the prescribed vertices are pinned to. Its frame is the world's at
        t = 0, so the pinned vertices' local coordinates are their rest positions: three
        world-axis slides carry the keyframes' translation, then a hinge about the body's
        pivot for each Euler angle the motion changes (z, y, x: MuJoCo composes a body's
        joints in order about the moving axes, R = Rz Ry Rx as eipc's), each joint a PD servo
        (position and velocity actuators), the finger's weight compensated."""
        o = self.opts
        finger = f"{b['name']}_finger"
        inertia = o.finger_mass * 1e-4
        joints = [(a, "slide", f'axis="{ax}"', kp, o.finger_mass)
                  for a, ax, kp in zip("xyz", ("1 0 0", "0 1 0", "0 0 1"), o.servo_kp)]
        kp_turn = o.servo_kp_rotation or float(self.np.mean(o.servo_kp)) * inertia / o.finger_mass
        for i in self.turns[b["name"]]:
            joints.append(("r" + "xyz"[i], "hinge", f'axis="{nums(self.np.eye(3)[i])}" pos="{nums(b["pivot"])}"',
                           kp_turn, inertia))
        xml = "".join(f'<joint name="{finger}_{a}" type="{kind}" {where}/>' for a, kind, where, _, _ in joints)
        self.world.append(f'<body name="{finger}" gravcomp="1"><inertial pos="0 0 0" mass="{num(o.finger_mass)}" '
                          f'diaginertia="{num(inertia)} {num(inertia)} {num(inertia)}"/>{xml}</body>')
        limit = f' forcelimited="true" forcerange="{num(-o.force_limit)} {num(o.force_limit)}"' \
            if o.force_limit > 0 else ""
        for a, _, _, kp, _ in joints:
            self.actuators_xml.append(f'<position name="{b["name"]}_p{a}" joint="{finger}_{a}" kp="{num(kp)}"{limit}/>')
        for a, _, _, kp, m in joints:
            kv = 2 * o.servo_damping_ratio * math.sqrt(kp * m)
            self.actuators_xml.append(f'<velocity name="{b["name"]}_v{a}" joint="{finger}_{a}" kv="{num(kv)}"{limit}/>')
        self.fingers.append(b)
        turning = "".join(f", hinge {'xyz'[i]} about the pivot" for i in self.turns[b["name"]])
        return f"({o.finger_mass:g} kg, slide joints x y z{turning})"

    def _add_flex(self, k):
        np, o = self.np, self.opts
        b = self.bodies[k]
        rest = self.rest[k]
        mat = b["material"]
        if is_shell(b):
            # A 2-D flex on the sheet's triangles: MuJoCo's shell is eipc's membrane (StVK, plane
            # stress, times the thickness) with a hinge bending normalized to the same Kirchhoff
            # plate (docs/peers.md, "MuJoCo 4 flex"); its radius is eipc's contact offset, half
            # the thickness to each side.
            t = mat["thickness"]
            elements = np.array(b["surface"], int)
            masses, volume = shell_lumped_masses(np, rest, elements, mat["density"], t)
            dim, radius = 2, t / 2
            shell = f'thickness="{num(t)}" elastic2d="both" '
            kind = f"2-D flex (Saint Venant-Kirchhoff membrane, hinge bending; thickness {t:g} m, radius {t / 2:g} m)"
            counts = f"{len(elements)} triangles"
        else:
            elements = np.array(b["tets"], int)
            masses, volume = lumped_masses(np, rest, elements, mat["density"])
            dim, radius, shell = 3, 0.0, ""
            kind = "3-D flex (Saint Venant-Kirchhoff)"
            counts = f"{len(elements)} tets"
        pinned = self.pinned[k]
        finger = self._add_finger(b) if pinned else ""
        names, vertex = [], []
        for i in range(len(rest)):
            if i in pinned:
                names.append(f"{b['name']}_finger")
                vertex.append(rest[i])
                continue
            # A point mass on three world-axis slides, as flexcomp generates (its inertiabox
            # default, 5 mm, for the rotational inertia MuJoCo requires of every body).
            name = f"{b['name']}_v{i}"
            names.append(name)
            vertex.append((0.0, 0.0, 0.0))
            inertia = num(masses[i] * 0.005 ** 2 / 6)
            self.world.append(f'<body name="{name}" pos="{nums(rest[i])}"><inertial pos="0 0 0" mass="{num(masses[i])}" '
                              f'diaginertia="{inertia} {inertia} {inertia}"/>'
                              '<joint type="slide" axis="1 0 0"/><joint type="slide" axis="0 1 0"/>'
                              '<joint type="slide" axis="0 0 1"/></body>')
        self.flexes.append(
            f'<flex name="{b["name"]}" dim="{dim}" radius="{num(radius)}" body="{" ".join(names)}" '
            f'vertex="{nums(np.ravel(vertex))}" element="{" ".join(str(int(v)) for v in elements.ravel())}">'
            f'<contact {self.contact} selfcollide="{o.selfcollide}" activelayers="{o.activelayers}"/>'
            f'<elasticity young="{num(mat["youngs"])}" poisson="{num(mat["poisson"])}" {shell}'
            f'damping="{num(b["rayleigh_beta"])}"/></flex>')
        free_mass = float(sum(masses[i] for i in range(len(rest)) if i not in pinned))
        self.mapping_.append({
            "body": b["name"],
            "eipc_model": f"{mat['model']}, E {mat['youngs']:g} Pa, nu {mat['poisson']:g}, rho {mat['density']:g}, "
                          f"beta {b['rayleigh_beta']:g} s, {len(rest)} vertices, {counts}"
                          + (f", {len(pinned)} prescribed" if pinned else ""),
            "peer_model": f"{kind}, E {mat['youngs']:g} Pa, nu {mat['poisson']:g}, "
                          f"Rayleigh damping {b['rayleigh_beta']:g} s, {len(rest)} vertices, {counts}, "
                          f"lumped masses {free_mass:.6g} kg on {len(rest) - len(pinned)} free vertices"
                          + (f", {len(pinned)} vertices pinned to a servo-driven finger body {finger}" if pinned else ""),
            "mass": float(volume * mat["density"]),
            "parameters": {"friction": [self.mu, 0.005, 0.0001], "selfcollide": o.selfcollide,
                           "activelayers": o.activelayers},
        })

    def _add_rigid(self, k):
        """An affine body as a free rigid body (its tets' mass, centre and inertia), or a
        kinematic body at rest as geoms of the world body; either one mesh geom (MuJoCo
        collides its convex hull) per convex piece of eipc-mujoco's decomposition
        (PeerRun.convex_pieces, --piece-size), so both MuJoCo peers collide the same shapes."""
        np, o = self.np, self.opts
        b = self.bodies[k]
        rest = self.rest[k]
        pieces = self.run.convex_pieces(k, o.piece_size)
        origin = np.zeros(3)
        if self.roles[k] == "rigid":
            p = self.run.mass_properties(k)
            origin = self.centres[k] = np.array(p["centre"])
            I = np.array(p["inertia"])
        geoms = []
        for n, piece in enumerate(pieces):
            mesh = f"mesh_{k}_{n}"
            self.assets.append(f'<mesh name="{mesh}" vertex="{nums(np.ravel(rest[piece] - origin))}"/>')
            geoms.append(f'<geom name="piece_{k}_{n}" type="mesh" mesh="{mesh}" {self.contact}/>')
        if self.roles[k] == "static":
            self.world.extend(geoms)
            peer = f"static geoms of the world body, {len(pieces)} convex pieces"
            mass = 0.0
        else:
            mass = p["mass"]
            inertia = nums([I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]])
            self.world.append(f'<body name="{b["name"]}" pos="{nums(origin)}"><freejoint/>'
                              f'<inertial pos="0 0 0" mass="{num(mass)}" fullinertia="{inertia}"/>'
                              + "".join(geoms) + '</body>')
            peer = f"free rigid body, {mass:.6g} kg (its tets at the scene's density), {len(pieces)} convex pieces"
        self.mapping_.append({
            "body": b["name"],
            "eipc_model": "kinematic, at rest" if self.roles[k] == "static" else
                          f"abd (affine), rho {b['material']['density']:g}, {len(rest)} vertices",
            "peer_model": peer + f" (their hulls; cell {o.piece_size:g} m), friction {self.mu:g}",
            "mass": mass,
            "parameters": {"convex_pieces": len(pieces), "piece_size": o.piece_size,
                           "friction": [self.mu, 0.005, 0.0001]},
        })

    # ------------------------------------------------------------------ driving
    def _drive(self, t):
        """Servo targets for the MuJoCo step ending at t: the keyframes' translation (and turning
        angles, radians) at t and the velocity that reaches them over the step (as eipc-mujoco's
        servo drive)."""
        np = self.np
        for b in self.fingers:
            def pose(at):
                m = self.run.motion_at(b["name"], at)
                return np.concatenate([m["translation"], np.radians(m["rotation_deg"])[self.turns[b["name"]]]])
            now, before = pose(t), pose(max(t - self.h, 0.0))
            position, velocity = self.actuators[b["name"]]
            self.data.ctrl[position] = now
            self.data.ctrl[velocity] = (now - before) / self.h if t > 0 else 0.0

    def _positions(self, data):
        """Every scene body's full-resolution vertices in `data`: a flex's vertices, a rigid
        body's rest vertices moved by its pose, a static body's rest vertices."""
        m = self.model
        out = []
        for k, rest in enumerate(self.rest):
            if k in self.flex_of:
                f = self.flex_of[k]
                a, n = m.flex_vertadr[f], m.flex_vertnum[f]
                out.append(data.flexvert_xpos[a:a + n].copy())
            elif k in self.rigid_of:
                i = self.rigid_of[k]
                # The body's frame is at the centre of mass, the world's axes at rest.
                out.append((rest - self.centres[k]) @ data.xmat[i].reshape(3, 3).T + data.xpos[i])
            else:
                out.append(rest.copy())
        return out

    def _stored_state(self):
        """Positions and contacts at the state after the step: mj_step computes positions and
        collisions before it integrates, so they are recomputed on a scratch copy."""
        if not self.state_ready:
            mj = self.mj
            # Only what positions and contacts need (a fifth of mj_fwdPosition's time here).
            self.scratch.qpos[:] = self.data.qpos
            mj.mj_kinematics(self.model, self.scratch)
            mj.mj_flex(self.model, self.scratch)
            mj.mj_collision(self.model, self.scratch)
            self.state_ready = True
        return self.scratch

    # ------------------------------------------------------------------ engine interface
    def parameters(self):
        o = self.opts
        return {
            "engine": NAME, "dt": self.run.dt, "substeps": self.substeps, "timestep": self.h,
            "integrator": o.integrator, "solver": o.solver, "tolerance": o.tolerance, "iterations": o.iterations,
            "ls_iterations": o.ls_iterations, "cone": o.cone, "impratio": o.impratio, "margin": o.margin,
            "solref": list(o.solref), "solimp": list(o.solimp), "selfcollide": o.selfcollide,
            "activelayers": o.activelayers, "friction": [self.mu, 0.005, 0.0001],
            "drive": "servo: finger bodies on x, y, z slide joints (then a hinge about the pivot per turning Euler "
                     "angle), position + velocity actuators, gravcomp 1",
            "servo_kp": list(o.servo_kp), "servo_kp_rotation": o.servo_kp_rotation or None,
            "servo_damping_ratio": o.servo_damping_ratio, "piece_size": o.piece_size,
            "finger_mass": o.finger_mass, "force_limit": o.force_limit or None, "memory": o.memory or None,
            "config": o.config,
        }

    def mapping(self):
        return self.mapping_

    def step(self):
        import eipc
        check_stop()
        mj, m, d = self.mj, self.model, self.data
        t0 = self.step_index * self.run.dt
        for j in range(1, self.substeps + 1):
            self._drive(t0 + j * self.h)
            try:
                mj.mj_step(m, d)
            except Exception as e:  # MuJoCo's own errors (e.g. its arena is full)
                raise eipc.SolverFailure(f"MuJoCo: {str(e).strip().splitlines()[0]}")
            self.contacts_peak = max(self.contacts_peak, int(d.ncon))
            self.constraints_peak = max(self.constraints_peak, int(d.nefc))
            self.solver_iterations_peak = max(self.solver_iterations_peak, int(d.solver_niter[0]))
            self._check_warnings()
        self.step_index += 1
        self.state_ready = False
        return self.substeps

    def _check_warnings(self):
        """MuJoCo's warnings end the run (exit 3): it carries on after them with a reset or
        under-converged state, which would be stored as if it were a result."""
        import eipc
        mj = self.mj
        why = {
            mj.mjtWarning.mjWARN_INERTIA: "the effective-metric solve did not converge or the inertia is singular "
                                         "(raise --iterations, or a smaller --max-substep)",
            mj.mjtWarning.mjWARN_CONTACTFULL: "its contact buffer is full (raise --memory)",
            mj.mjtWarning.mjWARN_CNSTRFULL: "its constraint buffer is full (raise --memory)",
            mj.mjtWarning.mjWARN_BADQPOS: "a bad number in qpos (it resets the state)",
            mj.mjtWarning.mjWARN_BADQVEL: "a bad number in qvel (it resets the state)",
            mj.mjtWarning.mjWARN_BADQACC: "a bad number in qacc (it resets the state)",
        }
        for w, text in why.items():
            n = int(self.data.warning[w].number)
            if n > self.warnings[int(w)]:
                info = int(self.data.warning[w].lastinfo)
                raise eipc.SolverFailure(f"MuJoCo warned in the step to t = {self.data.time:.4f} s: {text} (info {info})")

    def positions(self):
        return self._positions(self._stored_state())

    def _side(self, con, s):
        """The scene body (index) or 'ground' on side s of a contact; None for anything else."""
        if con.flex[s] >= 0:
            return self.body_of_flex.get(int(con.flex[s]))
        if con.geom[s] >= 0 and con.geom[s] == self.ground_geom:
            return "ground"
        return self.body_of_geom.get(int(con.geom[s]))

    def contact_forces(self):
        """Per body pair, the summed force of every active contact (mj_contactForce, in the
        contact frame, turned to world axes): the contact frame's normal points from side 0 to
        side 1, and the force is the one on side 1. Self contacts of a flex are left out."""
        np, mj, m, d = self.np, self.mj, self.model, self.data
        out = {}
        f6 = np.zeros(6)
        for c in range(d.ncon):
            con = d.contact[c]
            if con.efc_address < 0:
                continue
            a, b = self._side(con, 1), self._side(con, 0)
            if a is None or b is None:
                raise RuntimeError(f"MuJoCo reports a contact with something that is no scene body "
                                   f"(geom {tuple(con.geom)}, flex {tuple(con.flex)})")
            if a == b:
                continue
            mj.mj_contactForce(m, d, c, f6)
            frame = np.array(con.frame).reshape(3, 3)
            normal = f6[0] * frame[0]
            friction = f6[1] * frame[1] + f6[2] * frame[2]
            if a == "ground" or (b != "ground" and b < a):  # one entry per pair: (earlier body, later or ground)
                a, b, normal, friction = b, a, -normal, -friction
            e = out.setdefault((a, b), {"body_a": a, "body_b": -1 if b == "ground" else b, "normal": np.zeros(3),
                                        "friction": np.zeros(3), "pairs": 0})
            e["normal"] += normal
            e["friction"] += friction
            e["pairs"] += 1
        return [dict(e, normal=e["normal"].tolist(), friction=e["friction"].tolist()) for e in out.values()]

    def min_distance(self):
        """MuJoCo's own least signed distance of the contacts its collision detection finds at
        the stored state (negative: penetration), NaN without contacts."""
        d = self._stored_state()
        dist = [d.contact[c].dist for c in range(d.ncon)]
        return float(min(dist)) if dist else float("nan")

    def usage(self):
        return {"contacts_peak": self.contacts_peak, "constraints_peak": self.constraints_peak,
                "solver_iterations_peak": self.solver_iterations_peak, "nv": int(self.model.nv)}


# --------------------------------------------------------------------------- main

def prepare():
    try:
        import mujoco
    except ImportError as e:
        return f"mujoco is not importable with {sys.executable} ({e}); ci/setup-deps installs it"
    # MuJoCo's default log handler writes its warnings to MUJOCO_LOG.TXT in the working
    # directory; they go to stderr instead (stdout carries --json).
    mujoco.set_mju_user_warning(lambda text: print(f"mujoco: {text.strip()}", file=sys.stderr))
    if int(mujoco.__version__.split(".")[0]) < 3:
        return f"mujoco {mujoco.__version__} has no flex bodies (3.0 added them)"
    return None


def iterations(summary):
    return "MuJoCo steps", f"{summary['newton_iterations_mean']:.2f} per scene step"


if __name__ == "__main__":
    exit_with(lambda: run_peer(sys.argv[1:], NAME, parse_args, prepare, FlexEngine, iterations))
