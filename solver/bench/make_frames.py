#!/usr/bin/python3
"""Writes large test frames for `eipc certify`: a grid of icospheres (1,280 triangles
each), all in one mesh per frame as most datasets store them, as binary little-endian
PLY (double coordinates). In frame 1 every 10th sphere is moved into its neighbour,
so the intersections are known: SPHERES // 10 pairs.

    /usr/bin/python3 make_frames.py OUTDIR [--spheres 120] [--frames 2]

120 spheres: 153,600 triangles, 77,040 vertices per frame. Time it with
    eipc certify OUTDIR --bodies components
"""
import argparse
import math
import os
import struct


def icosphere(levels):
    t = (1 + 5 ** 0.5) / 2
    v = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t), (0, -1, -t), (0, 1, -t),
         (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    f = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4), (11, 10, 2), (10, 7, 6),
         (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9), (4, 9, 5), (2, 4, 11), (6, 2, 10),
         (8, 6, 7), (9, 8, 1)]
    v = [tuple(c / math.sqrt(sum(x * x for x in p)) for c in p) for p in v]
    for _ in range(levels):
        mid, nf = {}, []

        def middle(a, b):
            key = (min(a, b), max(a, b))
            if key not in mid:
                p = [(x + y) / 2 for x, y in zip(v[a], v[b])]
                n = math.sqrt(sum(x * x for x in p))
                v.append(tuple(x / n for x in p))
                mid[key] = len(v) - 1
            return mid[key]

        for a, b, c in f:
            ab, bc, ca = middle(a, b), middle(b, c), middle(c, a)
            nf += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        f = nf
    return v, f


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--spheres", type=int, default=120)
    ap.add_argument("--frames", type=int, default=2)
    args = ap.parse_args()
    sv, sf = icosphere(3)
    side = math.ceil(args.spheres ** (1 / 3))
    os.makedirs(args.out, exist_ok=True)
    for k in range(args.frames):
        verts, faces = [], []
        for s in range(args.spheres):
            cx, cy, cz = 2.5 * (s % side), 2.5 * (s // side % side), 2.5 * (s // side // side)
            if k > 0 and s % 10 == 1:
                cx -= 1.0  # into sphere s - 1 (same row): centres 1.5 apart, radius 1
            base = len(verts)
            verts += [(cx + x, cy + y, cz + z) for x, y, z in sv]
            faces += [(base + a, base + b, base + c) for a, b, c in sf]
        with open(os.path.join(args.out, f"frame{k:04d}.ply"), "wb") as out:
            out.write(("ply\nformat binary_little_endian 1.0\ncomment eipc solver/bench/make_frames.py\n"
                       f"element vertex {len(verts)}\nproperty double x\nproperty double y\nproperty double z\n"
                       f"element face {len(faces)}\nproperty list uchar int vertex_indices\nend_header\n").encode())
            out.write(b"".join(struct.pack("<3d", *p) for p in verts))
            out.write(b"".join(struct.pack("<B3i", 3, *t) for t in faces))


if __name__ == "__main__":
    main()
