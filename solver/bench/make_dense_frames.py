#!/usr/bin/python3
"""Contact-dense frame pairs for `eipc certify --continuous`, shaped like the published
simulation frames (Sample-Scalable-CCD-Data: rod twist, armadillo rollers, cloth on a
ball): one mesh per frame, binary little-endian PLY with double coordinates, the second
frame taken as an unfiltered simulation step would leave it, with thousands of colliding
primitive pairs among millions of candidates (docs/certify.md, "Contact-dense benchmarks").

    make_dense_frames.py OUTDIR --kind rods|rollers|cloth [--triangles N] [--aligned]

- rods: a bundle of rods twisted into each other: 7 capped tubes (one in the middle,
  six around it, nearly touching), the outer ones turned further about the bundle's
  axis in frame 1, so neighbours' surfaces pass into each other along their length.
- rollers: a soft slab under two rollers; in frame 1 each roller has turned a large
  angle and pressed into the slab, and the slab's top has dented under them.
- cloth: a sheet draped over a ball, frame 1 one step later with the sheet sagging
  through the ball's top and folds brushing each other.

Each kind writes OUTDIR/frame_0.ply and OUTDIR/frame_1.ply. The meshes are closed where
the body is a solid (rods, rollers, slab) and open for the cloth. Deterministic.
"""
import argparse
import math
import os
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_frames import icosphere  # noqa: E402


def write_ply(path, vertices, faces):
    """Binary little-endian PLY with double coordinates and int32 indices (meshio's layout)."""
    with open(path, "wb") as f:
        f.write(("ply\nformat binary_little_endian 1.0\ncomment eipc make_dense_frames.py\n"
                 f"element vertex {len(vertices)}\nproperty double x\nproperty double y\nproperty double z\n"
                 f"element face {len(faces)}\nproperty list uint8 int32 vertex_indices\nend_header\n").encode())
        f.write(np.ascontiguousarray(vertices, dtype="<f8").tobytes())
        rows = np.empty(len(faces), dtype=[("n", "u1"), ("v", "<i4", (3,))])
        rows["n"] = 3
        rows["v"] = faces
        f.write(rows.tobytes())


def tube(around, along, radius, length):
    """A closed capped cylinder along z from 0 to length: (vertices as (s, angle) grid plus
    two cap centres, faces). Vertex k = j * around + i is ring j, angle i."""
    angles = 2 * math.pi * np.arange(around) / around
    z = np.linspace(0, length, along)
    v = np.zeros((around * along + 2, 3))
    for j in range(along):
        v[j * around:(j + 1) * around] = np.c_[radius * np.cos(angles), radius * np.sin(angles), np.full(around, z[j])]
    v[-2] = (0, 0, 0)
    v[-1] = (0, 0, length)
    f = []
    for j in range(along - 1):
        for i in range(around):
            a, b = j * around + i, j * around + (i + 1) % around
            c, d = a + around, b + around
            f += [(a, b, d), (a, d, c)]
    bottom, top = len(v) - 2, len(v) - 1
    last = (along - 1) * around
    for i in range(around):
        f.append((bottom, (i + 1) % around, i))
        f.append((top, last + i, last + (i + 1) % around))
    return v, np.array(f)


def grid_box(nx, ny, nz, lo, hi):
    """The closed surface of a box, its faces split into nx x ny x nz cells (outward)."""
    lo, hi = np.asarray(lo, float), np.asarray(hi, float)
    verts, index, faces = [], {}, []

    def vid(p):
        key = tuple(p)
        if key not in index:
            index[key] = len(verts)
            verts.append(lo + (hi - lo) * np.array(p) / np.array([nx, ny, nz]))
        return index[key]

    n = (nx, ny, nz)
    for axis in range(3):
        u, w = (axis + 1) % 3, (axis + 2) % 3
        for side in (0, n[axis]):
            for a in range(n[u]):
                for b in range(n[w]):
                    def p(da, db):
                        q = [0, 0, 0]
                        q[axis], q[u], q[w] = side, a + da, b + db
                        return vid(q)
                    quad = [p(0, 0), p(1, 0), p(1, 1), p(0, 1)]
                    if side == 0:
                        quad.reverse()
                    faces += [(quad[0], quad[1], quad[2]), (quad[0], quad[2], quad[3])]
    return np.array(verts), np.array(faces)


def stack(parts):
    vs, fs, offset = [], [], 0
    for v, f in parts:
        vs.append(v)
        fs.append(f + offset)
        offset += len(v)
    return np.vstack(vs), np.vstack(fs)


def rods(triangles, aligned=False):
    around = 24
    along = max(4, triangles // (7 * 2 * around))
    radius, length = 0.01, 0.3
    v, f = tube(around, along, radius, length)
    frames = []
    # Frame 0: the six outer rods 0.2 mm clear of the middle one, wound 2 rad over the
    # length; frame 1: wound 0.3 rad further and pulled 0.5 mm into their neighbours.
    # Each rod's rings at its own heights and every vertex off by up to 1e-7 m, as a
    # simulation leaves them: no two rods share exactly coplanar rings. --aligned keeps
    # every ring at the same heights, moving in its plane: coplanar throughout, the exact
    # path's hardest case.
    rng = np.random.default_rng(59)
    ring_step = length / (along - 1)
    shapes = []
    for k in range(7):
        w = v.copy()
        if not aligned:
            w[:, 2] = np.clip(w[:, 2] + (k / 7 - 0.5) * ring_step, 0, length)
        shapes.append(w)
    jitter = [np.zeros((2,) + v.shape) if aligned else rng.uniform(-1e-7, 1e-7, (2,) + v.shape) for _ in range(7)]
    for step, (helix, twist) in enumerate(((2 * radius + 2e-4, 2.0), (2 * radius - 5e-4, 2.3))):
        parts = [(shapes[0] + jitter[0][step], f)]
        for k in range(6):
            w = shapes[k + 1].copy()
            theta = k * math.pi / 3 + twist * w[:, 2] / length
            w[:, 0] += helix * np.cos(theta)
            w[:, 1] += helix * np.sin(theta)
            parts.append((w + jitter[k + 1][step], f))
        frames.append(stack(parts))
    return frames


def rollers(triangles, aligned=False):
    n = max(8, int(math.sqrt(triangles / 11)))  # slab and rollers together: about 11 n^2 triangles
    slab = grid_box(2 * n, n, max(2, n // 8), (-0.2, -0.1, 0.0), (0.2, 0.1, 0.05))
    around, along = max(16, n), max(8, n // 2)
    roller, rf = tube(around, along, 0.03, 0.24)
    roller = roller[:, [0, 2, 1]] - (0, 0.12, 0)  # axis along y
    rf = rf[:, [0, 2, 1]]
    frames = []
    for step in (0, 1):
        sv = slab[0].copy()
        parts = []
        for cx, turn in ((-0.08, 1.2), (0.08, -1.2)):
            a = turn * step  # a large turn between the frames
            c, s = math.cos(a), math.sin(a)
            r = roller @ np.array([[c, 0, -s], [0, 1, 0], [s, 0, c]]).T
            r += (cx, 0, 0.05 + 0.03 + 2e-4 - 0.004 * step)  # 0.2 mm above, then 3.8 mm into the slab
            parts.append((r, rf))
            if step:  # the slab's top dents under the roller by half as much as the roller sinks
                top = sv[:, 2] > 0.05 - 1e-12
                dx = sv[:, 0] - cx
                sv[top, 2] -= 0.002 * np.exp(-(dx[top] / 0.02) ** 2)
        frames.append(stack([(sv, slab[1])] + parts))
    return frames


def cloth(triangles, aligned=False):
    n = max(8, int(math.sqrt(triangles / 2)))
    ball_levels = 4
    ball = icosphere(ball_levels)
    xs = np.linspace(-0.3, 0.3, n + 1)
    x, y = np.meshgrid(xs, xs, indexing="ij")
    rho = np.hypot(x, y)
    frames = []
    for step in (0, 1):
        r = 0.1
        gap = 5e-4 if step == 0 else -1e-3  # drapes 0.5 mm above the ball, then sags 1 mm through it
        # On the ball's cap (rho < 0.7 r), then down the cone tangent to it there, which stays
        # outside the ball; the hanging part ripples into folds.
        rho0 = 0.7 * r
        z0, slope = math.sqrt(r * r - rho0 * rho0), rho0 / math.sqrt(r * r - rho0 * rho0)
        cap = rho < rho0
        z = np.where(cap, np.sqrt(np.maximum(r * r - rho * rho, 0)), z0 - slope * (rho - rho0)) + gap
        z += np.where(cap, 0, 0.01 * np.sin(40 * np.arctan2(y, x)) * (rho - rho0))
        v = np.c_[x.ravel(), y.ravel(), z.ravel()]
        f = []
        for i in range(n):
            for j in range(n):
                a, b, c, d = i * (n + 1) + j, (i + 1) * (n + 1) + j, (i + 1) * (n + 1) + j + 1, i * (n + 1) + j + 1
                f += [(a, b, c), (a, c, d)]
        frames.append(stack([(v, np.array(f)), (np.array(ball[0]) * r, np.array(ball[1]))]))
    return frames


KINDS = {"rods": rods, "rollers": rollers, "cloth": cloth}


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("outdir")
    p.add_argument("--kind", choices=sorted(KINDS), required=True)
    p.add_argument("--triangles", type=int, default=80000, help="about this many triangles per frame")
    p.add_argument("--aligned", action="store_true", help="rods: rings at equal heights, moving in their planes")
    a = p.parse_args(argv)
    os.makedirs(a.outdir, exist_ok=True)
    frames = KINDS[a.kind](a.triangles, a.aligned)
    for k, (v, f) in enumerate(frames):
        write_ply(os.path.join(a.outdir, f"frame_{k}.ply"), v, f)
    print(f"{a.outdir}: {a.kind}, 2 frames, {len(frames[0][0])} vertices, {len(frames[0][1])} triangles")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
