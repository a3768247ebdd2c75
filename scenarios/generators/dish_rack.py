"""Wire dish rack: thin round wires as 8-sided polygon tubes, written as one OBJ.

    dish_rack.py OUTPUT.obj [PLATE.obj]   (prints a JSON report: counts, slots, gaps,
                                         and with PLATE.obj where it stands in each slot)

Metres, z up. The rack is made of separate, non-touching closed tubes (the simulator
treats the OBJ as one body and certifies it free of self-intersection, so wires that
would cross in a real rack are offset by a clearance instead of welded):

  frame   : one closed rounded-rectangle loop lying on the floor,
            x in [-FRAME_X, FRAME_X], y in [-FRAME_Y, FRAME_Y]
  uprights: N_SLOTS + 1 U-shaped wires in the planes x = x_i (pitch PITCH), legs at
            y = +-LEG_Y rising to z = TOP, bottom bar just above the frame
  rails   : two straight wires along x at y = +-RAIL_Y just above the U bottoms;
            a plate standing in the y-z plane between two uprights rests on them.

Wire centre lines of different pieces that cross in plan view are 2 r + GAP apart.
Each tube: rings of 8 vertices (octagon of circumradius r, a flat face up for horizontal
wires) at the centre-line samples; at a bend the in-plane ring axis is stretched by
1 / cos(phi / 2) (mitre joint, phi = turning angle) so the wire keeps its radius on
both sides. Open wires are closed by flat caps (fan around a centre vertex). Faces are
counter-clockwise seen from outside (each tube's enclosed volume > 0).
"""
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import meshtools  # noqa: E402

R = 0.0015            # wire radius (octagon circumradius), 3 mm wire
SIDES = 8
GAP = 0.0015          # clearance between wires that cross in plan view
CLEARANCE = 0.002     # lowest point of the rack above z = 0 (> dhat = 1 mm of the paper)
N_SLOTS = 5
PITCH = 0.030         # distance between neighbouring uprights = slot width (centre to centre)
LEG_Y = 0.070         # legs of the U's at y = +-LEG_Y
RAIL_Y = 0.035        # rails at y = +-RAIL_Y
FRAME_X, FRAME_Y = 0.100, 0.060
TOP = 0.100           # top of the uprights (cap plane)
BEND = 0.010          # bend radius of the U corners
FRAME_BEND = 0.015    # corner radius of the frame loop
MAX_SEG = 0.020       # longest straight sample spacing
ARC_STEP = math.pi / 8  # 22.5 degrees per sample on bends

Z_FRAME = CLEARANCE + R * math.cos(math.pi / SIDES)   # flat face down at z = CLEARANCE
Z_U = Z_FRAME + 2 * R + GAP                            # U bottom bars over the frame
Z_RAIL = Z_U + 2 * R + GAP                             # rails over the U bottom bars
X_UPRIGHTS = [(i - N_SLOTS / 2) * PITCH for i in range(N_SLOTS + 1)]
X_SLOTS = [(a + b) / 2 for a, b in zip(X_UPRIGHTS, X_UPRIGHTS[1:])]


def rounded_polyline(corners, radius, closed):
    """Centre line through `corners` (3D, coplanar) with each interior corner replaced by a
    circular arc of the given radius, sampled every ARC_STEP; straight parts every MAX_SEG."""
    P = [np.asarray(c, dtype=float) for c in corners]
    n = len(P)
    nodes = []  # per corner: the corner itself, or the samples of its arc
    for k in range(n):
        if radius == 0 or (not closed and k in (0, n - 1)):
            nodes.append([P[k]])
            continue
        a, b, c = P[k - 1], P[k], P[(k + 1) % n]
        u, v = (a - b) / np.linalg.norm(a - b), (c - b) / np.linalg.norm(c - b)
        half = math.acos(np.clip(u @ v, -1, 1)) / 2          # half the interior angle
        t = radius / math.tan(half)                          # corner to tangent point
        centre = b + (u + v) / np.linalg.norm(u + v) * radius / math.sin(half)
        e0, e1 = b + u * t - centre, b + v * t - centre
        sweep = math.pi - 2 * half
        m = max(1, math.ceil(sweep / ARC_STEP - 1e-9))
        nodes.append([centre + (math.sin((1 - s) * sweep) * e0 + math.sin(s * sweep) * e1) / math.sin(sweep)
                      for s in np.linspace(0, 1, m + 1)])
    pts = []
    for k in range(n):
        pts.extend(nodes[k])
        if not closed and k == n - 1:
            break
        a, b = nodes[k][-1], nodes[(k + 1) % n][0]
        m = max(1, math.ceil(np.linalg.norm(b - a) / MAX_SEG - 1e-9))
        pts.extend(a + (b - a) * s for s in np.linspace(0, 1, m + 1)[1:-1])
    return np.array(pts)


def tube(centre, plane_normal, closed):
    """Vertices and outward triangles of an octagonal tube around a planar centre line."""
    C, m = np.asarray(centre), np.asarray(plane_normal, dtype=float)
    n = len(C)
    rings = []
    for k in range(n):
        prev = C[k] - C[k - 1] if closed or k > 0 else None
        nxt = C[(k + 1) % n] - C[k] if closed or k < n - 1 else None
        d_in = prev / np.linalg.norm(prev) if prev is not None else None
        d_out = nxt / np.linalg.norm(nxt) if nxt is not None else None
        t = (d_in if d_out is None else d_out if d_in is None else d_in + d_out)
        t = t / np.linalg.norm(t)
        stretch = 1.0 if d_in is None or d_out is None else 1.0 / (t @ d_in)  # 1 / cos(phi / 2)
        side = np.cross(m, t)
        ring = [C[k] + R * (math.cos(th) * stretch * side + math.sin(th) * m)
                for th in (math.pi / SIDES + 2 * math.pi * j / SIDES for j in range(SIDES))]
        rings.append(ring)
    V = [p for ring in rings for p in ring]
    F = []
    for k in range(n if closed else n - 1):
        a, b = k * SIDES, ((k + 1) % n) * SIDES
        for j in range(SIDES):
            j1 = (j + 1) % SIDES
            F += [[a + j, b + j1, b + j], [a + j, a + j1, b + j1]]  # outward: ring is ccw about t
    if not closed:
        for k, sign in ((0, -1), (n - 1, 1)):
            V.append(C[k])
            c = len(V) - 1
            for j in range(SIDES):
                j1 = (j + 1) % SIDES
                F.append([c, k * SIDES + j, k * SIDES + j1] if sign > 0 else [c, k * SIDES + j1, k * SIDES + j])
    V, F = np.array(V), np.array(F, dtype=np.int64)
    if meshtools.enclosed_volume(V, F) <= 0:
        raise ValueError("tube faces point inwards")
    return V, F


def pieces():
    """(name, centre line, plane normal, closed) of every wire."""
    out = [("frame", rounded_polyline([[-FRAME_X, -FRAME_Y, Z_FRAME], [FRAME_X, -FRAME_Y, Z_FRAME],
                                       [FRAME_X, FRAME_Y, Z_FRAME], [-FRAME_X, FRAME_Y, Z_FRAME]],
                                      FRAME_BEND, True), [0, 0, 1], True)]
    for i, x in enumerate(X_UPRIGHTS):
        line = rounded_polyline([[x, -LEG_Y, TOP], [x, -LEG_Y, Z_U], [x, LEG_Y, Z_U], [x, LEG_Y, TOP]], BEND, False)
        out.append((f"upright_{i}", line, [1, 0, 0], False))
    for s in (-1, 1):
        x0, x1 = X_UPRIGHTS[0] - PITCH / 2, X_UPRIGHTS[-1] + PITCH / 2
        out.append((f"rail_{'left' if s < 0 else 'right'}",
                    rounded_polyline([[x0, s * RAIL_Y, Z_RAIL], [x1, s * RAIL_Y, Z_RAIL]], 0, False), [0, 0, 1], False))
    return out


def segment_distance(p0, p1, q0, q1):
    """Distance between closed segments (clamped closest-point parameters, brute-force refined)."""
    s = np.linspace(0, 1, 41)
    A = p0 + s[:, None] * (p1 - p0)
    B = q0 + s[:, None] * (q1 - q0)
    d = np.linalg.norm(A[:, None, :] - B[None, :, :], axis=2)
    i, j = np.unravel_index(np.argmin(d), d.shape)
    # refine around the coarse minimum with the exact point-segment distances
    def ps(p, a, b):
        t = np.clip((p - a) @ (b - a) / ((b - a) @ (b - a)), 0, 1)
        return np.linalg.norm(p - a - t * (b - a))
    fine = np.linspace(max(0, s[i] - 0.025), min(1, s[i] + 0.025), 101)
    return min(d[i, j], min(ps(p0 + f * (p1 - p0), q0, q1) for f in fine))


def min_gap(lines):
    """Smallest centre-line distance between segments of different wires, and between
    non-neighbouring segments (more than 3 apart) of the same wire."""
    segs = []
    for w, (name, C, _, closed) in enumerate(lines):
        n = len(C)
        for k in range(n if closed else n - 1):
            segs.append((w, k, n if closed else None, C[k], C[(k + 1) % n]))
    lo = np.array([np.minimum(a, b) for *_, a, b in segs]) - 0.01
    hi = np.array([np.maximum(a, b) for *_, a, b in segs]) + 0.01
    best = (math.inf, None)
    for i in range(len(segs)):
        near = np.nonzero(np.all(lo[i + 1:] <= hi[i], axis=1) & np.all(lo[i] <= hi[i + 1:], axis=1))[0] + i + 1
        for j in near:
            wi, ki, ni, a0, a1 = segs[i]
            wj, kj, _, b0, b1 = segs[j]
            if wi == wj:
                gap = abs(ki - kj) if ni is None else min(abs(ki - kj), ni - abs(ki - kj))
                if gap <= 3:
                    continue
            d = segment_distance(a0, a1, b0, b1)
            if d < best[0]:
                best = (d, (lines[wi][0], lines[wj][0]))
    return best


def clearance_2d(q, P, F):
    """Distance in the y-z plane from the point q = (y, z) to the projection of the triangles
    F of P (0 when q is inside a projected triangle): the distance from a rail (a line along
    x, longer than the plate is thick) to the plate."""
    A, B, C = (P[F[:, k]][:, 1:] for k in range(3))

    def seg(a, b):
        d = b - a
        t = np.clip(np.einsum("ij,ij->i", q - a, d) / np.maximum(np.einsum("ij,ij->i", d, d), 1e-300), 0, 1)
        return np.linalg.norm(a + t[:, None] * d - q, axis=1)

    def cross(u, v):
        return u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]
    s0, s1, s2 = cross(B - A, q - A), cross(C - B, q - B), cross(A - C, q - C)
    inside = ((s0 >= 0) & (s1 >= 0) & (s2 >= 0)) | ((s0 <= 0) & (s1 <= 0) & (s2 <= 0))
    d = np.minimum(np.minimum(seg(A, B), seg(B, C)), seg(C, A))
    return float(np.where(inside, 0.0, d).min())


def plate_in_slot(plate_obj, slot):
    """Where a plate stands in slot `slot`: rotated +90 deg about y ((x, y, z) -> (z, y, -x):
    its axis becomes x, it stands on its rim in the y-z plane), its x extent centred on the
    slot, and lifted (bisection, 1e-9 m) until every plate triangle clears both rails'
    circumscribed cylinders by GAP (distances in the y-z plane: the rails run along x past
    the plate). Returns (rotation_deg, translation) of the scene transform x' = R x + t
    (rotation about the mesh origin, as the scene loader applies it; R = Ry(90 deg)) and
    the placed vertices."""
    V, faces = read_obj(plate_obj)
    F = np.array([[f[0], f[j], f[j + 1]] for f in faces for j in range(1, len(f) - 1)])
    P = np.column_stack([V[:, 2], V[:, 1], -V[:, 0]])
    shift = np.array([X_SLOTS[slot] - (P[:, 0].min() + P[:, 0].max()) / 2, 0.0, -P[:, 2].min()])
    P = P + shift

    def clear(lift):
        return min(clearance_2d(np.array([s * RAIL_Y, Z_RAIL - lift]), P, F) for s in (-1, 1)) >= R + GAP
    lo, hi = 0.0, Z_RAIL + 0.1
    assert clear(hi) and not clear(lo)
    while hi - lo > 1e-9:
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if clear(mid) else (mid, hi)
    shift[2] += hi
    return [0.0, 90.0, 0.0], shift.tolist(), P + [0, 0, hi]


def read_obj(path):
    V, F = [], []
    with open(path) as f:
        for line in f:
            p = line.split()
            if p and p[0] == "v":
                V.append([float(t) for t in p[1:4]])
            elif p and p[0] == "f":
                F.append([int(t.split("/")[0]) - 1 for t in p[1:]])
    return np.array(V), F


def write_convex_pieces(out, objects):
    """Beside OUTPUT.obj, OUTPUT.convex.json: the rack as convex pieces, each the vertex
    indices (0-based, the OBJ's order) of two consecutive rings of one wire (an octagonal
    frustum; a cap's centre lies in its ring's plane, so the union of the pieces is the
    rack exactly). For engines whose rigid-rigid contact takes a mesh's convex hull (Drake's
    point contact): they build the rack from these pieces (docs/peers.md, "Drake")."""
    pieces = []
    for name, base, V, F in objects:
        rings = (len(V) - (0 if name == "frame" else 2)) // SIDES
        closed = name == "frame"
        for k in range(rings if closed else rings - 1):
            a, b = base + k * SIDES, base + ((k + 1) % rings) * SIDES
            pieces.append({"wire": name, "vertices": list(range(a, a + SIDES)) + list(range(b, b + SIDES))})
    path = os.path.splitext(out)[0] + ".convex.json"
    doc = {"format": "eipc-convex-pieces", "version": 1, "mesh": os.path.basename(out),
           "made_by": "scenarios/generators/dish_rack.py", "pieces": pieces}
    with open(path + ".tmp", "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    os.replace(path + ".tmp", path)


def main():
    out = sys.argv[1]
    lines = pieces()
    verts, objects = [], []
    for name, C, m, closed in lines:
        V, F = tube(C, m, closed)
        meshtools.check_closed(F, name)
        objects.append((name, len(verts), V, F))
        verts.extend(V.tolist())
    text = ["# wire dish rack generated by scenarios/generators/dish_rack.py (metres, z up)"]
    base = 0
    all_F = []
    for name, _, V, F in objects:
        text.append(f"o {name}")
        text += [f"v {x!r} {y!r} {z!r}" for x, y, z in V.tolist()]
        text += [f"f {a + base + 1} {b + base + 1} {c + base + 1}" for a, b, c in F.tolist()]
        all_F.append(F + base)
        base += len(V)
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(text) + "\n")
    os.replace(tmp, out)
    write_convex_pieces(out, objects)
    V, F = np.array(verts), np.concatenate(all_F)
    meshtools.check_closed(F, out)
    gap, pair = min_gap(lines)
    stretch = 1 / math.cos(ARC_STEP / 2)
    surface_gap = gap - 2 * R * stretch      # conservative: rings lie within R * stretch
    if surface_gap <= 0.001:
        sys.exit(f"{out}: wires {pair} are only {surface_gap * 1e3:.2f} mm apart")
    report = {
        "vertices": len(V), "triangles": len(F), "wires": len(lines),
        "bbox_min": V.min(axis=0).tolist(), "bbox_max": V.max(axis=0).tolist(),
        "wire_diameter": 2 * R, "min_centre_line_distance": gap, "closest_wires": pair,
        "min_surface_gap_bound": surface_gap,
        "uprights_x": X_UPRIGHTS, "slots_x": X_SLOTS,
        "rail_y": RAIL_Y, "rail_centre_z": Z_RAIL, "slot_floor_z": Z_RAIL + R,
    }
    if len(sys.argv) > 2:
        report["plate_in_slot"] = [plate_in_slot(sys.argv[2], k)[:2] for k in range(N_SLOTS)]
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
