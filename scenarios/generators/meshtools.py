"""Small mesh helpers shared by the asset generators (numpy only).

Tet meshes are (V, T): V float64 (n, 3) coordinates, T int64 (m, 4) 0-based indices,
positively oriented: det(x1 - x0, x2 - x0, x3 - x0) > 0.
Floats are written with repr(), the shortest text that reads back to the same double.
"""
import os

import numpy as np


def read_msh22(path):
    """Nodes and 4-node tets (element type 4) of a Gmsh ASCII 2.2 file; other elements are skipped."""
    with open(path) as f:
        lines = f.read().split("\n")
    i = 0
    tags, xyz, tets = [], [], []
    while i < len(lines):
        line = lines[i].strip()
        if line == "$MeshFormat":
            version = lines[i + 1].split()
            if not version[0].startswith("2.") or version[1] != "0":
                raise ValueError(f"{path}: expected Gmsh ASCII 2.x, got {lines[i + 1]!r}")
        elif line == "$Nodes":
            n = int(lines[i + 1])
            for row in lines[i + 2:i + 2 + n]:
                t, x, y, z = row.split()
                tags.append(int(t))
                xyz.append((float(x), float(y), float(z)))
            i += n + 1
        elif line == "$Elements":
            n = int(lines[i + 1])
            for row in lines[i + 2:i + 2 + n]:
                v = [int(s) for s in row.split()]
                if v[1] == 4:
                    tets.append(v[3 + v[2]:3 + v[2] + 4])
            i += n + 1
        i += 1
    index = {t: k for k, t in enumerate(tags)}
    T = np.array([[index[t] for t in tet] for tet in tets], dtype=np.int64).reshape(-1, 4)
    return np.array(xyz, dtype=np.float64).reshape(-1, 3), T


def signed_volumes(V, T):
    """V_t = det(x1 - x0, x2 - x0, x3 - x0) / 6."""
    a, b, c, d = (V[T[:, k]] for k in range(4))
    return np.einsum("ij,ij->i", np.cross(b - a, c - a), d - a) / 6.0


def orient_positive(V, T):
    """Swap the last two vertices of every negatively oriented tet."""
    T = T.copy()
    neg = signed_volumes(V, T) < 0
    T[neg, 2], T[neg, 3] = T[neg, 3].copy(), T[neg, 2].copy()
    return T


def drop_unused(V, T):
    """Keep only vertices used by a tet, in their original order."""
    used = np.zeros(len(V), dtype=bool)
    used[T.ravel()] = True
    new_index = np.cumsum(used) - 1
    return V[used], new_index[T]


def write_msh22(path, V, T):
    """Gmsh ASCII 2.2 with nodes 1..n and only 4-node tets (no tags); written atomically."""
    out = ["$MeshFormat", "2.2 0 8", "$EndMeshFormat", "$Nodes", str(len(V))]
    out += [f"{k + 1} {x!r} {y!r} {z!r}" for k, (x, y, z) in enumerate(V.tolist())]
    out += ["$EndNodes", "$Elements", str(len(T))]
    out += [f"{k + 1} 4 0 {a + 1} {b + 1} {c + 1} {d + 1}" for k, (a, b, c, d) in enumerate(T.tolist())]
    out += ["$EndElements", ""]
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(out))
    os.replace(tmp, path)


def boundary_faces(T):
    """Faces of exactly one tet, outward for positive tets: (a,c,b), (a,b,d), (a,d,c), (b,c,d)."""
    F = np.concatenate([T[:, [0, 2, 1]], T[:, [0, 1, 3]], T[:, [0, 3, 2]], T[:, [1, 2, 3]]])
    key = np.sort(F, axis=1)
    _, inverse, counts = np.unique(key, axis=0, return_inverse=True, return_counts=True)
    return F[counts[inverse.ravel()] == 1]


def check_closed(F, what):
    """Every directed edge appears once and its reverse once (closed, consistently oriented)."""
    E = np.concatenate([F[:, [0, 1]], F[:, [1, 2]], F[:, [2, 0]]])
    directed = {tuple(e) for e in E.tolist()}
    if len(directed) != len(E):
        raise ValueError(f"{what}: a directed edge is used twice (non-manifold or flipped face)")
    missing = [e for e in directed if (e[1], e[0]) not in directed]
    if missing:
        raise ValueError(f"{what}: {len(missing)} boundary edges, e.g. {missing[0]}")


def enclosed_volume(V, F):
    """Divergence theorem: 1/6 sum_f det(x0 - p, x1 - p, x2 - p), p = vertex mean."""
    p = V.mean(axis=0)
    a, b, c = (V[F[:, k]] - p for k in range(3))
    return float(np.einsum("ij,ij->i", np.cross(a, b), c).sum() / 6.0)


def radius_ratio(V, T):
    """3 r_in / r_circ per tet (1 for the regular tet, 0 for a flat one)."""
    a, b, c, d = (V[T[:, k]] for k in range(4))
    vol = np.abs(signed_volumes(V, T))
    area = sum(np.linalg.norm(np.cross(q - p, r - p), axis=1) / 2
               for p, q, r in ((a, b, c), (a, b, d), (a, c, d), (b, c, d)))
    r_in = 3 * vol / area
    # Circumradius: |d^2 (b x c) + ...| / (12 V) with edge vectors from a.
    u, v, w = b - a, c - a, d - a
    num = (np.einsum("ij,ij->i", w, w)[:, None] * np.cross(u, v)
           + np.einsum("ij,ij->i", v, v)[:, None] * np.cross(w, u)
           + np.einsum("ij,ij->i", u, u)[:, None] * np.cross(v, w))
    r_circ = np.linalg.norm(num, axis=1) / (12 * vol)
    return 3 * r_in / r_circ


def tet_mesh_report(V, T):
    """Counts, bounding box, volume and quality of a tet mesh as a dict."""
    F = boundary_faces(T)
    vols = signed_volumes(V, T)
    q = radius_ratio(V, T)
    return {
        "vertices": len(V), "tets": len(T), "boundary_triangles": len(F),
        "boundary_vertices": len(np.unique(F)),
        "bbox_min": V.min(axis=0).tolist(), "bbox_max": V.max(axis=0).tolist(),
        "volume": float(vols.sum()), "min_tet_volume": float(vols.min()),
        "min_radius_ratio": float(q.min()), "mean_radius_ratio": float(q.mean()),
    }


def clean_gmsh_tets(src, dst):
    """Read a Gmsh 2.2 file, keep only tets and the vertices they use, orient them positively,
    check the boundary is closed and write dst. Returns the report dict."""
    V, T = read_msh22(src)
    T = orient_positive(V, T)
    V, T = drop_unused(V, T)
    vols = signed_volumes(V, T)
    size = float((V.max(axis=0) - V.min(axis=0)).max())
    if (vols <= 1e-12 * size ** 3).any():
        raise ValueError(f"{src}: {(vols <= 1e-12 * size ** 3).sum()} degenerate tets")
    F = boundary_faces(T)
    check_closed(F, src)
    write_msh22(dst, V, T)
    return tet_mesh_report(V, T)


if __name__ == "__main__":
    import json
    import sys
    if len(sys.argv) != 3:
        sys.exit("usage: meshtools.py GMSH_OUT.msh CLEAN.msh   (prints a JSON report)")
    print(json.dumps(clean_gmsh_tets(sys.argv[1], sys.argv[2]), indent=1))
