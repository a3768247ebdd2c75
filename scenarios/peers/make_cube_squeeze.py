"""Meshes of the peer engines' cube squeeze (cube_squeeze.json, docs/peers.md).

    /usr/bin/python3 make_cube_squeeze.py      (writes cube.vtk and finger.obj here)

cube.vtk: a 5 cm cube on a regular 4x4x4 grid, each cell split into 6 tets (384 tets),
legacy VTK ASCII. finger.obj: a 1 x 4 x 4 cm box, outward-oriented triangles.
Both are centred on the origin; the scene places them.
"""
import itertools
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def cube_tets(side, n):
    h = side / n
    index = lambda i, j, k: (i * (n + 1) + j) * (n + 1) + k
    points = [(i * h - side / 2, j * h - side / 2, k * h - side / 2)
              for i, j, k in itertools.product(range(n + 1), repeat=3)]
    tets = []
    for i, j, k in itertools.product(range(n), repeat=3):
        c = [index(i + a, j + b, k + d) for a, b, d in itertools.product((0, 1), repeat=3)]
        # Six tets around the cell diagonal c[0]-c[7] (Kuhn split), all positively oriented.
        for p in ((1, 3), (3, 2), (2, 6), (6, 4), (4, 5), (5, 1)):
            a, b = c[p[0]], c[p[1]]
            tets.append((c[0], a, b, c[7]))
    return points, tets


def signed_volume(p, t):
    a, b, c, d = (p[i] for i in t)
    u = [b[i] - a[i] for i in range(3)]
    v = [c[i] - a[i] for i in range(3)]
    w = [d[i] - a[i] for i in range(3)]
    return (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0])) / 6


def write_vtk(path, points, tets):
    tets = [t if signed_volume(points, t) > 0 else (t[0], t[2], t[1], t[3]) for t in tets]
    with open(path, "w") as f:
        f.write("# vtk DataFile Version 2.0\ncube for the peer squeeze\nASCII\nDATASET UNSTRUCTURED_GRID\n")
        f.write(f"POINTS {len(points)} double\n")
        f.writelines(f"{x:.9g} {y:.9g} {z:.9g}\n" for x, y, z in points)
        f.write(f"CELLS {len(tets)} {5 * len(tets)}\n")
        f.writelines(f"4 {a} {b} {c} {d}\n" for a, b, c, d in tets)
        f.write(f"CELL_TYPES {len(tets)}\n" + "10\n" * len(tets))


def write_box_obj(path, size):
    hx, hy, hz = (s / 2 for s in size)
    v = [(x, y, z) for x in (-hx, hx) for y in (-hy, hy) for z in (-hz, hz)]
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    with open(path, "w") as f:
        f.write("# box for the peer squeeze (make_cube_squeeze.py)\n")
        f.writelines(f"v {x:.9g} {y:.9g} {z:.9g}\n" for x, y, z in v)
        for a, b, c, d in quads:
            f.write(f"f {a + 1} {b + 1} {c + 1}\nf {a + 1} {c + 1} {d + 1}\n")


if __name__ == "__main__":
    write_vtk(os.path.join(HERE, "cube.vtk"), *cube_tets(0.05, 4))
    write_box_obj(os.path.join(HERE, "finger.obj"), (0.01, 0.04, 0.04))
