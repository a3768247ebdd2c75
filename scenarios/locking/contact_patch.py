#!/usr/bin/python3
"""The contact patch of a body, read off a run: its surface vertices that come within a
distance of other bodies' surfaces (issue 60, item 2; docs/embedding.md, "Contact-patch nodes").

    scenarios/locking/contact_patch.py RUN.h5 --body teddy --near bubble_left,bubble_right
        [--within 0.003] [--from 0] [--to inf]

Prints the vertex indices (into the body's mesh, as the scene's `contact_patch` takes
them) as a JSON list: every surface vertex of BODY whose distance to a triangle of a
NEAR body is at most WITHIN metres in some stored frame with FROM <= t <= TO. The
patch is fixed before the run that uses it: take RUN from another model of the scene
(a coarse one is enough, since contact happens where the grippers go).
"""
import argparse
import json
import sys

import h5py
import numpy as np


def point_triangle_distances(p, a, b, c):
    """Distance from each point p (P x 3) to each triangle (a, b, c: T x 3): P x T.
    The closest point by the triangle's Voronoi regions (vertices, edges, face)."""
    p = p[:, None, :]
    ab, ac, ap = b - a, c - a, p - a
    d1, d2 = (ab * ap).sum(-1), (ac * ap).sum(-1)
    bp = p - b
    d3, d4 = (ab * bp).sum(-1), (ac * bp).sum(-1)
    cp = p - c
    d5, d6 = (ab * cp).sum(-1), (ac * cp).sum(-1)
    va = d3 * d6 - d5 * d4
    vb = d5 * d2 - d1 * d6
    vc = d1 * d4 - d3 * d2
    with np.errstate(divide="ignore", invalid="ignore"):
        denom = 1.0 / (va + vb + vc)
        v, w = vb * denom, vc * denom
        closest = a + ab * v[..., None] + ac * w[..., None]  # inside the face
        t_ab = d1 / (d1 - d3)
        t_ac = d2 / (d2 - d6)
        t_bc = (d4 - d3) / ((d4 - d3) + (d5 - d6))
    regions = [  # (mask, closest point), checked last to first so the first true one wins
        ((va <= 0) & (d4 - d3 >= 0) & (d5 - d6 >= 0), b + (c - b) * t_bc[..., None]),
        ((vb <= 0) & (d2 >= 0) & (d6 <= 0), a + ac * t_ac[..., None]),
        ((d6 >= 0) & (d5 <= d6), np.broadcast_to(c, closest.shape)),
        ((vc <= 0) & (d1 >= 0) & (d3 <= 0), a + ab * t_ab[..., None]),
        ((d3 >= 0) & (d4 <= d3), np.broadcast_to(b, closest.shape)),
        ((d1 <= 0) & (d2 <= 0), np.broadcast_to(a, closest.shape)),
    ]
    for mask, point in regions:
        closest = np.where(mask[..., None], point, closest)
    return np.linalg.norm(p - closest, axis=-1)


def contact_patch(path, body, near, within, t_from=0.0, t_to=np.inf):
    with h5py.File(path, "r") as f:
        times = f["frames/time"][:]
        frames = np.flatnonzero((times >= t_from) & (times <= t_to))
        if len(frames) == 0:
            sys.exit(f"error: {path}: no stored frame with {t_from} <= t <= {t_to}")
        for name in [body] + near:
            if f"bodies/{name}" not in f:
                sys.exit(f"error: {path}: no body named '{name}' (bodies: {', '.join(f['bodies'])})")
        surface = np.unique(f[f"bodies/{body}/surface_triangles"][:])
        chosen = np.zeros(len(surface), dtype=bool)
        for k in frames:
            x = f[f"bodies/{body}/positions"][k][surface]
            for other in near:
                y = f[f"bodies/{other}/positions"][k]
                tri = f[f"bodies/{other}/surface_triangles"][:]
                for start in range(0, len(x), 256):  # P x T blocks of bounded size
                    d = point_triangle_distances(x[start:start + 256], y[tri[:, 0]], y[tri[:, 1]], y[tri[:, 2]])
                    chosen[start:start + 256] |= d.min(axis=1) <= within
    return [int(v) for v in surface[chosen]]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("run")
    p.add_argument("--body", required=True)
    p.add_argument("--near", required=True, help="comma-separated body names")
    p.add_argument("--within", type=float, default=0.003, help="distance [m]")
    p.add_argument("--from", dest="t_from", type=float, default=0.0)
    p.add_argument("--to", dest="t_to", type=float, default=np.inf)
    a = p.parse_args()
    patch = contact_patch(a.run, a.body, a.near.split(","), a.within, a.t_from, a.t_to)
    print(f"{len(patch)} vertices of {a.body} within {a.within} m of {a.near}", file=sys.stderr)
    print(json.dumps(patch))


if __name__ == "__main__":
    main()
