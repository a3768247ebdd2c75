#!/usr/bin/python3
"""Writes the stress-matrix scenes (JSON, docs/scene-format.md) and their box meshes.

    make_scenes.py OUTDIR      -> OUTDIR/<scene>.json, OUTDIR/meshes/*.msh, OUTDIR/matrix.json

Families (issue 8): Young's modulus 1e3..1e9 Pa x time step 1e-4..0.1 s (a cube
dropped onto the ground), impacts up to 20 m/s onto 1-2 mm plates and wires, a
stack of 10 boxes, a soft cube crushed between kinematic plates, and embedded
bodies whose coarse embedding does not cover the fine surface (extrapolated
vertices). Pure Python, deterministic; every mesh is a box split into Kuhn tets.
"""
import itertools
import json
import os
import sys


def box_mesh(lo, hi, cells):
    """Vertices and positively oriented tets of the box [lo, hi] with cells (nx, ny, nz),
    each cell split into 6 tets around its main diagonal (conforming across cells)."""
    n = cells
    V = []
    for k in range(n[2] + 1):
        for j in range(n[1] + 1):
            for i in range(n[0] + 1):
                V.append(tuple(lo[a] + (hi[a] - lo[a]) * (i, j, k)[a] / n[a] for a in range(3)))

    def vid(i, j, k):
        return i + (n[0] + 1) * (j + (n[1] + 1) * k)

    T = []
    for k, j, i in itertools.product(range(n[2]), range(n[1]), range(n[0])):
        for perm in itertools.permutations(range(3)):
            corner = [i, j, k]
            tet = [vid(*corner)]
            for axis in perm:
                corner[axis] += 1
                tet.append(vid(*corner))
            if signed_volume(V, tet) < 0:
                tet[2], tet[3] = tet[3], tet[2]
            T.append(tet)
    return V, T


def signed_volume(V, t):
    a, b, c, d = (V[x] for x in t)
    u = [b[i] - a[i] for i in range(3)]
    v = [c[i] - a[i] for i in range(3)]
    w = [d[i] - a[i] for i in range(3)]
    return (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0])
            + u[2] * (v[0] * w[1] - v[1] * w[0])) / 6.0


def write_msh(path, V, T):
    """Gmsh ASCII 2.2, nodes 1..n, 4-node tets only."""
    out = ["$MeshFormat", "2.2 0 8", "$EndMeshFormat", "$Nodes", str(len(V))]
    out += [f"{k + 1} {x!r} {y!r} {z!r}" for k, (x, y, z) in enumerate(V)]
    out += ["$EndNodes", "$Elements", str(len(T))]
    out += [f"{k + 1} 4 0 {a + 1} {b + 1} {c + 1} {d + 1}" for k, (a, b, c, d) in enumerate(T)]
    out += ["$EndElements", ""]
    with open(path, "w") as f:
        f.write("\n".join(out))


def material(youngs, density=1000.0, poisson=0.3, model="neo_hookean"):
    return {"model": model, "youngs": youngs, "poisson": poisson, "density": density}


def scene(name, duration, dt, bodies, ground=0.0, friction=0.0, every=None):
    s = {"format": "eipc-scene", "version": 1, "name": name, "duration": duration, "dt": dt,
         "gravity": [0, 0, -9.81], "contact": {"kappa": 1e4, "dhat": 1e-3, "epsv": 1e-3, "friction": friction},
         "solver": {"newton_tol": 1e-5, "max_newton_iters": 200}, "bodies": bodies}
    if ground is not None:
        s["ground"] = {"height": ground}
    if every is not None:
        s["output"] = {"every": every}
    return s


def body(name, mesh, translation=(0, 0, 0), velocity=(0, 0, 0), mat=None, **extra):
    b = {"name": name, "mesh": "meshes/" + mesh, "transform": {"translation": list(translation)},
         "velocity": list(velocity)}
    if mat is not None:
        b["material"] = mat
    b.update(extra)
    return b


def border_vertices(V, lo, hi, axes=(0, 1)):
    """Indices of the vertices on the sides of [lo, hi] normal to `axes` (pinned edges)."""
    eps = 1e-12
    return [k for k, p in enumerate(V) if any(abs(p[a] - lo[a]) < eps or abs(p[a] - hi[a]) < eps for a in axes)]


def fmt_e(x):
    return f"{x:.0e}".replace("e+0", "e").replace("e-0", "e-")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_scenes.py OUTDIR")
    out = sys.argv[1]
    os.makedirs(os.path.join(out, "meshes"), exist_ok=True)
    meshes = {}

    def mesh(name, lo, hi, cells):
        if name not in meshes:
            meshes[name] = box_mesh(lo, hi, cells)
            write_msh(os.path.join(out, "meshes", name), *meshes[name])
        return meshes[name]

    scenes = []

    def add(s, family, **info):
        with open(os.path.join(out, s["name"] + ".json"), "w") as f:
            json.dump(s, f, indent=1)
        scenes.append({"name": s["name"], "family": family, **info})

    # 1. Stiffness x time step: a 10 cm cube (3x3x3 cells) hits the ground at 2 m/s.
    mesh("cube10.msh", (0, 0, 0), (0.1, 0.1, 0.1), (3, 3, 3))
    for youngs in (1e3, 1e5, 1e7, 1e9):
        for dt in (1e-4, 1e-3, 1e-2, 1e-1):
            name = f"drop_E{fmt_e(youngs)}_h{fmt_e(dt)}"
            add(scene(name, 0.2, dt, [body("cube", "cube10.msh", (0, 0, 0.002), (0, 0, -2), material(youngs))]),
                "stiffness x dt", youngs=youngs, dt=dt)

    # 2. Impacts: a 2 cm cube at up to 20 m/s onto a pinned 1 mm plate and a pinned 2 mm wire.
    mesh("bullet.msh", (-0.01, -0.01, 0), (0.01, 0.01, 0.02), (2, 2, 2))
    plo, phi = (-0.1, -0.1, -0.001), (0.1, 0.1, 0.0)
    PV, _ = mesh("plate1mm.msh", plo, phi, (10, 10, 1))
    wlo, whi = (-0.1, -0.001, -0.002), (0.1, 0.001, 0.0)
    WV, _ = mesh("wire2mm.msh", wlo, whi, (20, 1, 1))
    plate_pins = border_vertices(PV, plo, phi)
    wire_pins = border_vertices(WV, wlo, whi, axes=(0,))
    for speed in (5, 20):
        for dt in (1e-3, 1e-2):
            name = f"impact_plate_v{speed}_h{fmt_e(dt)}"
            add(scene(name, 0.03, dt, [
                body("plate", "plate1mm.msh", (0, 0, 0.1), mat=material(1e7, 1000, 0.3),
                     prescribed=[{"vertices": plate_pins}]),
                body("bullet", "bullet.msh", (0, 0, 0.105), (0, 0, -speed), material(1e8, 2000))]),
                "impact", speed=speed, dt=dt, target="plate 1 mm")
            name = f"impact_wire_v{speed}_h{fmt_e(dt)}"
            add(scene(name, 0.03, dt, [
                body("wire", "wire2mm.msh", (0, 0, 0.1), mat=material(1e8, 1000, 0.3),
                     prescribed=[{"vertices": wire_pins}]),
                body("bullet", "bullet.msh", (0.005, 0, 0.105), (0, 0, -speed), material(1e8, 2000))]),
                "impact", speed=speed, dt=dt, target="wire 2 mm")
    # A free 2 mm plate slammed flat onto the ground at 20 m/s.
    mesh("plate2mm.msh", (-0.05, -0.05, 0), (0.05, 0.05, 0.002), (5, 5, 1))
    for dt in (1e-3, 1e-2):
        add(scene(f"plate_slam_v20_h{fmt_e(dt)}", 0.03, dt,
                  [body("plate", "plate2mm.msh", (0, 0, 0.01), (0, 0, -20), material(1e7))]),
            "impact", speed=20, dt=dt, target="ground (2 mm plate)")

    # 3. A stack of 10 boxes (4 cm, alternately shifted and turned), 2 mm apart, settling on the ground.
    mesh("box4.msh", (-0.02, -0.02, 0), (0.02, 0.02, 0.04), (2, 2, 2))
    for dt in (1e-2,):
        boxes = []
        for i in range(10):
            boxes.append(body(f"box{i}", "box4.msh", (0.004 * (i % 2), 0, 0.001 + 0.042 * i), mat=material(1e6, 500)))
            boxes[-1]["transform"]["rotation_deg"] = [0, 0, 15 * i]
        add(scene(f"stack10_h{fmt_e(dt)}", 0.5, dt, boxes, friction=0.5, every=0.02),
            "stack", dt=dt, bodies=10)

    # 4. A soft cube (E = 1e4) crushed between kinematic plates to 50 % and to 5 % of its height.
    mesh("soft.msh", (-0.05, -0.05, 0), (0.05, 0.05, 0.1), (3, 3, 3))
    mesh("slab.msh", (-0.1, -0.1, -0.02), (0.1, 0.1, 0.0), (1, 1, 1))
    for squeeze in (0.5, 0.95):
        # The plates start 0.104 m apart (cube 0.1 m, gaps 1 and 3 mm) and close to (1 - squeeze) * 0.1 m.
        travel = 0.104 - (1 - squeeze) * 0.1
        add(scene(f"crush_{int(squeeze * 100)}pct", 1.0, 0.01, [
            body("bottom", "slab.msh", (0, 0, -0.001), kinematic=True),
            body("soft", "soft.msh", (0, 0, 0.0), mat=material(1e4, 200, 0.4)),
            body("top", "slab.msh", (0, 0, 0.123), kinematic=True,
                 motion=[{"t": 0, "translation": [0, 0, 0]}, {"t": 0.8, "translation": [0, 0, -travel]}])],
            ground=None, friction=0.5, every=0.02),
            "crush", squeeze=squeeze)

    # 5. Embedded bodies with extrapolated vertices: the coarse embedding is an inset box
    #    (2x2x2 cells) 2.5 mm inside the fine cube: its whole surface is outside every tet, the
    #    corners 4.3 mm (eipc refuses more than 5 % of the body size, here 5 mm).
    mesh("fine.msh", (0, 0, 0), (0.1, 0.1, 0.1), (6, 6, 6))
    mesh("inset.msh", (0.0025, 0.0025, 0.0025), (0.0975, 0.0975, 0.0975), (2, 2, 2))
    for youngs, speed in ((1e5, 5), (1e9, 20)):
        cube = body("cube", "fine.msh", (0, 0, 0.005), (0, 0, -speed), material(youngs),
                    embeddings={"inset": "meshes/inset.msh"}, embedding="inset")
        add(scene(f"embedded_inset_E{fmt_e(youngs)}_v{speed}", 0.1, 1e-3, [cube]),
            "embedded (extrapolated)", youngs=youngs, speed=speed)

    with open(os.path.join(out, "matrix.json"), "w") as f:
        json.dump(scenes, f, indent=1)
    print(f"{len(scenes)} scenes in {out}")


if __name__ == "__main__":
    main()
