#!/usr/bin/python3
"""How much stiffer than a fine mesh a coarse linear (P1) or quadratic (P2) embedding is, in a
static linear-elastic stand-in for the teddy squeeze (issue 40: would P2 embeddings cure it?).

    scenarios/locking/static_proxy.py [--p1] FINE.msh EMBEDDING.msh [EMBEDDING.msh ...]

(--p1: the P1 subspaces only, skipping the slower P2 ones; each P1 subspace is also given
with coarsened stiffness, below.)

FINE.msh: the teddy's tet mesh in teddy.vtk's frame (e.g. from
scenarios/generators/subdivided_tetgen.py, as scenarios/locking/reference_series.py makes
them); each EMBEDDING.msh in the same frame (scenarios/assets/embeddings/teddy_low.msh,
or `eipc embed`). Linear elasticity (E = 5e4 Pa, nu = 0.45, the bear of teddy.json, after
its transform); load: 1 N in x spread over the outermost surface vertices under each
bubble (within 12 mm of the bear's extreme x, in the bubbles' y-z window), opposite on the
two sides. Compliance c = f^T u with K u = f (rigid modes projected out). A coarse method
is the subspace x = J q of its P1 or P2 shape functions evaluated at the fine vertices,
with the fine mesh's energy (K_c = J^T K J, a Galerkin projection, the stiffest a
subspace can be made exact): stiffness ratio = c_fine / c_coarse (1: as soft as the fine
mesh). P2 nodes: the embedding's vertices and edge midpoints; nodes no fine vertex
depends on are dropped. A stand-in, not the grasp: compare the ratios with the grasp's
force errors of the same embeddings (docs/embedding.md) before reading one for a method
not built.
"P1 coarsened": the same P1 subspace with the fine mesh's stiffness condensed onto it as
eipc's `coarsened_stiffness` does (docs/embedding.md, "Coarsened stiffness": the fit
q = (J^T W J)^-1 J^T W u, W the fine lumped volumes, and the least-energy fine field with
that fit), in this linear stand-in without the body's rotation: its compliance for node
loads J^T f is g^T K^-1 g with g = W J (J^T W J)^-1 J^T f (balanced, as J reproduces
linear fields).
"P1 coarsened, surface on the fine field": the same coarsened nodes, but with the load (the
contact) on the least-energy fine field Phi q instead of on the fit J q: the Galerkin method on
span(Phi) (multiscale finite elements), so never softer than the fine mesh. EMBEDDING.msh may
be the word `affine`: one tet around the bear (eipc's affine embedding).
Debian's /usr/bin/python3 (numpy, scipy).
"""
import os
import sys
import time

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
import scipy.sparse.linalg as spla

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "generators"))
from meshtools import read_msh22, boundary_faces  # noqa: E402

E, NU = 5e4, 0.45
LAM, MU = E * NU / ((1 + NU) * (1 - 2 * NU)), E / (2 * (1 + NU))


def world(V):
    """teddy.json's transform: scale 0.15, rotation 90 deg about x."""
    s = 0.15 * V
    return np.column_stack([s[:, 0], -s[:, 2], s[:, 1]])


def stiffness(V, T):
    n = len(V)
    X = V[T]  # m,4,3
    Dm = np.stack([X[:, 1] - X[:, 0], X[:, 2] - X[:, 0], X[:, 3] - X[:, 0]], axis=2)  # m,3,3 columns
    vol = np.abs(np.linalg.det(Dm)) / 6
    Binv = np.linalg.inv(Dm)  # rows: grad of barycentric 1..3
    G = np.concatenate([-Binv.sum(axis=1, keepdims=True), Binv], axis=1)  # m,4,3 gradients of N_a
    m = len(T)
    B = np.zeros((m, 6, 12))
    for a in range(4):
        gx, gy, gz = G[:, a, 0], G[:, a, 1], G[:, a, 2]
        B[:, 0, 3 * a] = gx
        B[:, 1, 3 * a + 1] = gy
        B[:, 2, 3 * a + 2] = gz
        B[:, 3, 3 * a], B[:, 3, 3 * a + 1] = gy, gx  # engineering shear strains
        B[:, 4, 3 * a + 1], B[:, 4, 3 * a + 2] = gz, gy
        B[:, 5, 3 * a], B[:, 5, 3 * a + 2] = gz, gx
    D = np.zeros((6, 6))
    D[:3, :3] = LAM
    D[np.arange(3), np.arange(3)] += 2 * MU
    D[3:, 3:] = np.eye(3) * MU
    Ke = np.einsum("mik,ij,mjl->mkl", B, D, B) * vol[:, None, None]
    dofs = (3 * T[:, :, None] + np.arange(3)).reshape(m, 12)
    rows = np.repeat(dofs, 12, axis=1).ravel()
    cols = np.tile(dofs, (1, 12)).ravel()
    return sp.csr_matrix((Ke.ravel(), (rows, cols)), shape=(3 * n, 3 * n))


def squeeze_load(Vw, T):
    """Equal and opposite x forces on the outermost surface vertices under each bubble."""
    surf = np.unique(boundary_faces(T))
    f = np.zeros((len(Vw), 3))
    window = (np.abs(Vw[surf, 1] + 0.01) < 0.03) & (np.abs(Vw[surf, 2] - 0.07) < 0.04)
    for side in (-1, 1):
        cand = surf[window & (side * Vw[surf, 0] > 0)]
        extreme = (side * Vw[cand, 0]).max()
        patch = cand[side * Vw[cand, 0] > extreme - 0.012]
        f[patch, 0] = -side / len(patch)
    return f.ravel()


def rigid_modes(X):
    """Orthonormal basis of the 3 translations and 3 rotations of the points X."""
    c = X.mean(axis=0)
    R = []
    for k in range(3):
        t = np.zeros_like(X)
        t[:, k] = 1
        R.append(t.ravel())
    for k in range(3):
        w = np.zeros(3)
        w[k] = 1
        R.append(np.cross(w, X - c).ravel())
    Q, _ = np.linalg.qr(np.array(R).T)
    return Q


def compliance(K, f, X, coarse):
    Q = rigid_modes(X)
    f = f - Q @ (Q.T @ f)
    alpha = K.diagonal().mean()
    if coarse:  # coarse: dense least squares (a P2 mode no fine vertex sees has no stiffness)
        u = np.linalg.lstsq(K.toarray() + alpha * Q @ Q.T, f, rcond=1e-12)[0]
    else:  # fine: sparse, a tiny shift for the rigid modes, which f does not load
        Kr = (K + 1e-9 * alpha * sp.identity(K.shape[0])).tocsc()
        u = spla.spsolve(Kr, f)
        u = u - Q @ (Q.T @ u)
    return f @ u


def barycentric_locate(P, CV, CT):
    X = CV[CT]
    Dm = np.stack([X[:, 1] - X[:, 0], X[:, 2] - X[:, 0], X[:, 3] - X[:, 0]], axis=2)
    Dinv = np.linalg.inv(Dm)
    best_t = np.zeros(len(P), dtype=int)
    best_w = np.zeros((len(P), 4))
    best_min = np.full(len(P), -np.inf)
    for t in range(len(CT)):
        l = (P - X[t, 0]) @ Dinv[t].T
        w = np.column_stack([1 - l.sum(axis=1), l])
        mn = w.min(axis=1)
        better = mn > best_min
        best_min[better] = mn[better]
        best_t[better] = t
        best_w[better] = w[better]
    return best_t, best_w, best_min


def coarse_map(V, CV, CT, order):
    t, w, mn = barycentric_locate(V, CV, CT)
    n = len(V)
    if order == 1:
        rows = np.repeat(np.arange(n), 4)
        cols = CT[t].ravel()
        vals = w.ravel()
        ncoarse = len(CV)
    else:
        edges = {}
        pairs = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        for tet in CT:
            for a, b in pairs:
                key = tuple(sorted((tet[a], tet[b])))
                if key not in edges:
                    edges[key] = len(CV) + len(edges)
        rows, cols, vals = [], [], []
        for v in range(n):
            tet = CT[t[v]]
            lam = w[v]
            for a in range(4):
                rows.append(v); cols.append(tet[a]); vals.append(lam[a] * (2 * lam[a] - 1))
            for a, b in pairs:
                rows.append(v); cols.append(edges[tuple(sorted((tet[a], tet[b])))]); vals.append(4 * lam[a] * lam[b])
        ncoarse = len(CV) + len(edges)
    J1 = sp.csr_matrix((vals, (rows, cols)), shape=(n, ncoarse))
    used = np.unique(J1.nonzero()[1])
    J1 = J1[:, used]
    J = sp.kron(J1, sp.identity(3)).tocsr()
    return J, len(used), mn.min()


def lumped_volumes(V, T):
    X = V[T]
    vol = np.abs(np.linalg.det(np.stack([X[:, 1] - X[:, 0], X[:, 2] - X[:, 0], X[:, 3] - X[:, 0]], axis=2))) / 6
    w = np.zeros(len(V))
    np.add.at(w, T.ravel(), np.repeat(vol / 4, 4))
    return np.repeat(w, 3)


def coarsened_compliance(K, f, X, J, w):
    """Compliance of the coarsened P1 subspace J for the fine load f (see the docstring)."""
    JW = J.T.multiply(w[None, :]).tocsr()  # J^T W
    M = (JW @ J).tocsc()
    g = JW.T @ spla.spsolve(M, J.T @ f)
    return compliance(K, g, X, coarse=False)


def fine_field_compliance(K, f, X, J, w):
    """Compliance of span(Phi), the least-energy fine fields of the fits q = (J^T W J)^-1 J^T W u.

    Phi q = K^+ C^T mu + rigid motion, C = J^T W, mu balanced (orthogonal to C R for the rigid
    modes R): the span is K^+ C^T P plus the rigid motions, P a basis of the balanced mu, and its
    Galerkin compliance for a balanced load f is b^T (P^T S P)^-1 b, S = C K^+ C^T, b = P^T C K^+ f.
    """
    Q = rigid_modes(X)
    alpha = K.diagonal().mean()
    factor = spla.splu((K + 1e-9 * alpha * sp.identity(K.shape[0])).tocsc())

    def k_plus(g):
        g = g - Q @ (Q.T @ g)
        u = factor.solve(g)
        return u - Q @ (Q.T @ u)

    C = J.T.multiply(w[None, :]).tocsr()
    Ct = C.T.toarray()
    S = C @ np.column_stack([k_plus(Ct[:, i]) for i in range(Ct.shape[1])])
    P = sla.null_space((C @ Q).T)
    b = P.T @ (C @ k_plus(f))
    return b @ np.linalg.solve(P.T @ S @ P, b)


def read_embedding(name, Vw):
    """An embedding mesh in teddy.vtk's frame, or for `affine` one tet around the bear (world frame)."""
    if name != "affine":
        return read_msh22(name), False
    corner, size = Vw.min(axis=0) - 0.01, 3 * (Vw.max(axis=0) - Vw.min(axis=0) + 0.02).max()
    return (np.array([corner, corner + [size, 0, 0], corner + [0, size, 0], corner + [0, 0, size]]),
            np.array([[0, 1, 2, 3]])), True


def main():
    args = [a for a in sys.argv[1:] if a != "--p1"]
    orders = (1,) if "--p1" in sys.argv[1:] else (1, 2)
    if len(args) < 2:
        sys.exit(__doc__)
    V, T = read_msh22(args[0])
    Vw = world(V)
    t0 = time.time()
    K = stiffness(Vw, T)
    f = squeeze_load(Vw, T)
    cf = compliance(K, f, Vw, coarse=False)
    w = lumped_volumes(Vw, T)
    print(f"fine {len(V)} nodes: compliance {cf:.4e} m/N ({time.time() - t0:.1f} s)", flush=True)
    for emb in args[1:]:
        (CV, CT), in_world = read_embedding(emb, Vw)
        for order in orders:
            J, nn, worst = coarse_map(Vw if in_world else V, CV, CT, order)
            Kc = (J.T @ K @ J).tocsr()
            fc = J.T @ f
            # coarse node positions for rigid modes: least squares J x = Vw
            Xc = spla.lsqr(J, Vw.ravel(), atol=1e-14, btol=1e-14)[0].reshape(-1, 3)
            cc = compliance(Kc, fc, Xc, coarse=True)
            print(f"{emb.split('/')[-1]} P{order}: {nn} nodes, stiffness ratio {cf / cc:.2f} "
                  f"(min weight {worst:.2g})", flush=True)
            if order == 1 and len(orders) == 1:
                ck = coarsened_compliance(K, f, Vw, J, w)
                print(f"{emb.split('/')[-1]} P1 coarsened: {nn} nodes, stiffness ratio {cf / ck:.2f}", flush=True)
                cp = fine_field_compliance(K, f, Vw, J, w)
                print(f"{emb.split('/')[-1]} P1 coarsened, surface on the fine field: {nn} nodes, "
                      f"stiffness ratio {cf / cp:.2f}", flush=True)


if __name__ == "__main__":
    main()
