"""Writes scenarios/assets/generated/README.md (to stdout) from the generated files.

    asset_readme.py GENERATED_DIR PLATE.obj TEDDY.vtk

Every number in the README is measured on the files (or taken from the generators'
parameters), so the README stays true after a rerun of make_assets.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dish_rack  # noqa: E402
import meshtools  # noqa: E402
import subdivided_tetgen  # noqa: E402

COMMITTED_LIMIT = 6_000_000  # bytes; larger files are produced on demand and not committed

TETS = [
    ("finray.msh", "make_assets finray",
     "gmsh -3 -nt 1 -setnumber h 0.0009 -setnumber hr 0.0005 -setnumber nl 4 finray.geo"),
    ("finray_coarse.msh", "make_assets finray_coarse",
     "gmsh -3 -nt 1 -setnumber h 0.003 -setnumber hr 0 -setnumber nl 2 finray.geo"),
    ("plate.msh", "make_assets plate", "plate_tetgen.py plate_8in_col.obj (tetgen -pYq1.4)"),
    ("sphere_0k4.msh", "make_assets sphere_0k4", "gmsh -3 -nt 1 -setnumber h 0.013 sphere.geo"),
    ("sphere_5k.msh", "make_assets sphere_5k", "gmsh -3 -nt 1 -setnumber h 0.0047 sphere.geo"),
    ("sphere_50k.msh", "make_assets sphere_50k", "gmsh -3 -nt 1 -setnumber h 0.00203 sphere.geo"),
    ("teddy_50k.msh", "make_assets teddy_50k", "subdivided_tetgen.py teddy.vtk, 2 levels, tetgen -pYq1.4a1.2e-6"),
]


def mm(v):
    return " x ".join(f"{x * 1e3:.1f}" for x in v)


def main():
    out, plate_obj, teddy_vtk = sys.argv[1:4]
    rows = []
    for name, cmd, how in TETS:
        path = os.path.join(out, name)
        V, T = meshtools.read_msh22(path)
        r = meshtools.tet_mesh_report(V, T)
        size = os.path.getsize(path)
        committed = "yes" if size <= COMMITTED_LIMIT else "**no** (on demand)"
        rows.append(f"| `{name}` | {r['vertices']} | {r['tets']} | {r['boundary_vertices']} / {r['boundary_triangles']} "
                    f"| {mm(np.subtract(r['bbox_max'], r['bbox_min']))} | {r['volume'] * 1e6:.3f} "
                    f"| {r['min_radius_ratio']:.3f} / {r['mean_radius_ratio']:.3f} | {size / 1e6:.2f} MB, {committed} "
                    f"| `{cmd}` ({how}) |")
    Vr, Fr = dish_rack.read_obj(os.path.join(out, "dish_rack.obj"))
    ntri = sum(len(f) - 2 for f in Fr)
    rack_size = os.path.getsize(os.path.join(out, "dish_rack.obj"))
    rack_row = (f"| `dish_rack.obj` | {len(Vr)} | {ntri} triangles, {len(dish_rack.pieces())} closed wires | - "
                f"| {mm(Vr.max(axis=0) - Vr.min(axis=0))} | - | - | {rack_size / 1e6:.2f} MB, yes "
                f"| `make_assets dish_rack` (dish_rack.py) |")
    sphere_volume = 4 / 3 * np.pi * 0.05 ** 3 * 1e6
    Vt, Tt = subdivided_tetgen.read_vtk_tets(teddy_vtk)
    Vs, Fs = subdivided_tetgen.boundary_surface(Vt, Tt)
    slots = []
    for k, x in enumerate(dish_rack.X_SLOTS):
        rot, t, placed = dish_rack.plate_in_slot(plate_obj, k)
        plate_low = placed[:, 2].min()
        slots.append(f"| {k} | {x:+.3f} | {dish_rack.X_UPRIGHTS[k]:+.3f} .. {dish_rack.X_UPRIGHTS[k + 1]:+.3f} "
                     f"| [{t[0]:.6f}, {t[1]:.6f}, {t[2]:.6f}] |")
    print(TEMPLATE.format(
        table="\n".join(rows + [rack_row]), slots="\n".join(slots), plate_low=plate_low,
        sphere_volume=sphere_volume, teddy_vertices=len(Vt), teddy_tets=len(Tt), teddy_surface_vertices=len(Vs),
        teddy_triangles=len(Fs), teddy_volume=meshtools.enclosed_volume(Vs, Fs), r=dish_rack.R * 1e3, d=2 * dish_rack.R * 1e3, gap=dish_rack.GAP * 1e3,
        clearance=dish_rack.CLEARANCE, pitch=dish_rack.PITCH * 1e3, n=dish_rack.N_SLOTS, top=dish_rack.TOP,
        leg_y=dish_rack.LEG_Y, rail_y=dish_rack.RAIL_Y, z_rail=dish_rack.Z_RAIL,
        floor=dish_rack.Z_RAIL + dish_rack.R, z_u=dish_rack.Z_U, z_frame=dish_rack.Z_FRAME,
        fx=dish_rack.FRAME_X, fy=dish_rack.FRAME_Y, inner=(dish_rack.PITCH - 2 * dish_rack.R) * 1e3).rstrip())


TEMPLATE = """# Generated scenario assets

Made by `scenarios/generators/make_assets` (sources beside it: `finray.geo`, `sphere.geo`,
`meshtools.py`, `plate_tetgen.py`, `subdivided_tetgen.py`, `dish_rack.py`, this README by
`asset_readme.py`).
Do not edit these files by hand: change a generator and rerun

```
scenarios/generators/make_assets               # all assets + README.md + SHA256SUMS (~1 min)
scenarios/generators/make_assets sphere_50k    # one asset (here: one of the two not committed)
scenarios/generators/make_assets --out DIR     # elsewhere, e.g. to diff against these
```

It installs `gmsh` (Debian 4.8) and `tetgen` (1.5) with apt-get when missing and runs
with `/usr/bin/python3` (numpy). Output is deterministic (single-threaded gmsh `-nt 1`,
`Mesh.RandomSeed = 1`; TetGen and the python scripts have no randomness): a rerun with
the same tool versions gives byte-identical files (`sha256sum -c SHA256SUMS`).

Units: metres, z up. Tet meshes are Gmsh ASCII 2.2 holding only 4-node tets, every tet
positively oriented (`det(x1-x0, x2-x0, x3-x0) > 0`), no unused vertices, boundary closed;
coordinates are written with the shortest text that reads back to the same double.
`solver/tests/unit/scenarios/generated_assets_test.cpp` reads every file with the
project's readers and validates it.

| file | vertices | tets | boundary vertices / triangles | size x y z (mm) | volume (cm^3) | radius ratio min / mean | file size, committed | command |
|---|---|---|---|---|---|---|---|---|
{table}

Radius ratio = 3 r_in / r_circ (1 for a regular tet).

## FinRay finger (`finray.msh`, `finray_coarse.msh`)

Fin Ray gripper finger (paper, Experiments B): a triangular profile in the x-z plane
extruded 20 mm along y (y in [-0.01, 0.01]).

- **base**: the flat face **z = 0**, x in [0, 0.020]; select its vertices with a box such as
  `{{"box": [[-1, -1, -1], [1, 1, 1e-6]]}}` (fixed to the gripper). A 2 mm base bar joins
  the walls there.
- **front (contact) wall**: outer face in the plane **x = 0**, 1.5 mm thick, from the base to
  the tip; pressing it in +x makes the finger bend towards the object (Fin Ray effect).
- **back wall**: 1.5 mm thick, from (x = 0.020, z = 0) to the tip (x = 0, z = 0.055).
- **tip**: the edge x = 0, z = 0.055 (55 mm from the base).
- **ribs**: 5 cross ribs, 1 mm thick, rising 10 deg from the front wall towards the back wall,
  evenly spaced between the base bar and the inner apex.

The profile is meshed with triangles (0.9 mm; 0.5 mm on the ribs, so walls and ribs are
2 elements thick) and extruded in 4 layers of 5 mm (each prism split into 3 tets): tets are
elongated along y (aspect about 5-10), hence the low radius ratios; the bending happens in
the x-z plane, which is resolved. `finray_coarse.msh`: 3 mm triangles (walls and ribs one
element thick), 2 layers. Both have exactly the same geometry (same volume). Change the
shape with `gmsh -setnumber` (`L W D tw tb tr nr rib_deg h hr nl`, see `finray.geo`).

## Plate (`plate.msh`)

`../drake_models/dishes/plate_8in_col.obj` (450 vertices, 896 triangles, closed)
tetrahedralised by TetGen with `-pYq1.4`: `-Y` forbids Steiner points on the surface.
`plate_tetgen.py` checks that vertices 0..449 are the OBJ's vertices in file order, bit for
bit, and that the tets' boundary faces are exactly the OBJ's 896 triangles with the same
orientation. TetGen adds no interior vertex for this thin shape (quality is limited by the
OBJ's thin triangles), so the mesh has the OBJ's 450 vertices only.

## Wire dish rack (`dish_rack.obj`)

A static rack of {d:.0f} mm round wires (8-sided tubes, circumradius {r:.1f} mm), one OBJ object
(`o` line) per wire; the simulator reads the file as one body. Every wire is a closed tube
(capped ends, outward faces), and no two wires touch: where wires cross in plan view their
centre lines are {gap:.1f} mm + one diameter apart (surface gap >= {gap:.1f} mm less the mitre
bulge, checked by `dish_rack.py`, and certified exactly by the unit test).

- frame: a closed rounded rectangle x in [-{fx}, {fx}], y in [-{fy}, {fy}], centre line at
  z = {z_frame:.6f}; the lowest point of the rack is at z = {clearance} (clear of a ground
  at z = 0 by more than dhat).
- {n} + 1 U-shaped uprights in the planes x = const, {pitch:.0f} mm apart, legs at
  y = +-{leg_y}, rising to z = {top} (flat caps), bottom bars at z = {z_u:.6f} (above the frame).
- two rails along x at y = +-{rail_y}, centre z = {z_rail:.6f} (above the U bottom bars).

**Slots**: a plate stands on its rim in the y-z plane between two neighbouring uprights
(clear width between the wires {inner:.0f} mm; the plate is 17.8 mm thick) and rests on the
two rails. **Slot floor height (top of the rails) z = {floor:.6f}.**

| slot | centre x | between uprights at x | plate translation (with rotation_deg [0, 90, 0]) |
|---|---|---|---|
{slots}

The translation is the scene `transform` (rotation about the mesh origin, `x' = R x + t`, as
the scene loader applies it) that puts `plate_8in_col.obj` / `plate.msh` in the slot, standing
on its rim with every plate triangle {gap:.1f} mm clear of the rails' circumscribed cylinders
(it then drops onto them); its lowest point is then at z = {plate_low:.6f} (the plate's rim is
a 3D polygon, so it rests a little higher than a round rim would).

## Spheres for the resolution study (`sphere_*.msh`)

A ball of radius 0.05 m centred at the origin (gmsh OpenCASCADE sphere, Delaunay tets)
at three sizes: about 400, 5,000 and 50,000 vertices. The exact volume is {sphere_volume:.3f} cm^3;
the polyhedral meshes are slightly smaller. `sphere_50k.msh` is about 13 MB and is
**not committed** (listed in `.gitignore`): `make_assets sphere_50k` produces it in about
30 s; its hash is in `SHA256SUMS` so a rebuilt file can be checked.

## High-resolution teddy (`teddy_50k.msh`)

Drake's teddy (`../drake/teddy.vtk`: {teddy_vertices} vertices, {teddy_tets} tets, boundary {teddy_surface_vertices} vertices /
{teddy_triangles} triangles) refined to more than 50,000 vertices for the resolution study
(`scenarios/resolution/teddy_50k.json`). `subdivided_tetgen.py` takes its boundary surface,
splits every triangle into four at its edge midpoints, twice (16 times the triangles), and
tetrahedralises the result with TetGen `-pYq1.4a1.2e-6` (`-Y`: no Steiner points on the
surface, radius-edge ratio 1.4, tet volume at most 1.2e-6 in the file's units, which makes
the interior edges a little shorter than the surface's); teddy.vtk's interior vertices are
not used. The midpoints lie on the input triangles, so the surface and the volume
({teddy_volume:.6f}) are teddy.vtk's; the script checks that the tets' boundary is exactly the
subdivided surface. Like teddy.vtk the file is y-up and in its own units (the scenes scale
the bear by 0.15; the table's mm are file units times 1000). Every vertex lies inside the
low lattice `../embeddings/teddy_low.msh` (none extrapolated; checked by the unit test), but
not inside the medium one, whose lattice boxes without a teddy.vtk vertex were dropped.
About 15 MB, **not committed** (`.gitignore`): `make_assets teddy_50k` makes it in about
15 s; its hash is in `SHA256SUMS`.
"""

if __name__ == "__main__":
    main()
