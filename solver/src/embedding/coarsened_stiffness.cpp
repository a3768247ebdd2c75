#include "eipc/embedding/coarsened_stiffness.hpp"

#include "eipc/elasticity/elastic_body.hpp"
#include "eipc/embedding/point_location.hpp"
#include "eipc/elasticity/lumped_mass.hpp"
#include "eipc/mesh/volume.hpp"
#include "eipc/optim/linear_solver.hpp"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <vector>

namespace eipc {

namespace {

using Sparse = Eigen::SparseMatrix<double>;

/// The 6 rigid motions of the points, as columns (3 v + i rows).
MatX rigid_modes(const Positions& x) {
  const Eigen::RowVector3d c = x.colwise().mean();
  MatX R = MatX::Zero(3 * x.rows(), 6);
  for (Eigen::Index v = 0; v < x.rows(); ++v) {
    const Vec3 p = (x.row(v) - c).transpose();
    for (int k = 0; k < 3; ++k) {
      R(3 * v + k, k) = 1.0;
      R.block<3, 1>(3 * v, 3 + k) = Vec3::Unit(k).cross(p);
    }
  }
  return R;
}

/// Each fine vertex's connected part (tets joined through shared vertices),
/// numbered 0.. in order of first vertex; vertices in no tet get -1.
std::vector<int> coarsening_vertex_parts(Eigen::Index num_vertices, const Tets& tets, int& num_parts) {
  std::vector<int> up(num_vertices);
  for (Eigen::Index v = 0; v < num_vertices; ++v) up[v] = static_cast<int>(v);
  auto root = [&](int v) {
    while (up[v] != v) v = up[v] = up[up[v]];
    return v;
  };
  std::vector<char> used(num_vertices, 0);
  for (Eigen::Index t = 0; t < tets.rows(); ++t)
    for (int j = 0; j < 4; ++j) {
      used[tets(t, j)] = 1;
      up[root(tets(t, j))] = root(tets(t, 0));
    }
  std::vector<int> part(num_vertices, -1), id(num_vertices, -1);
  num_parts = 0;
  for (Eigen::Index v = 0; v < num_vertices; ++v) {
    if (!used[v]) continue;
    const int r = root(static_cast<int>(v));
    if (id[r] < 0) id[r] = num_parts++;
    part[v] = id[r];
  }
  return part;
}

}  // namespace

NodeMap locate_in_nodes(const SimulationNodes& nodes, const Positions& points) {
  const std::vector<TetLocation> loc = locate_points(nodes.node_rest, nodes.elements, points);
  NodeMap map;
  map.nodes.resize(points.rows(), 4);
  map.weights.resize(points.rows(), 4);
  for (Eigen::Index v = 0; v < points.rows(); ++v)
    for (int j = 0; j < 4; ++j) {
      map.nodes(v, j) = nodes.elements(loc[v].tet, j);
      map.weights(v, j) = loc[v].weights[j];
    }
  return map;
}

namespace {

/// CoarsenedParts from the solve's X = K_p^{-1} C_p^T (free dofs x nodes) and
/// mu = M q: the minimiser is u = X mu + (a rigid motion), and a rigid motion
/// has no energy in any part, so stiffness[p] = M^T X^T K^(p) X M.
void split_into_parts(const Positions& fine_rest, const Tets& fine_tets, const NodeMap& to_nodes, int num_nodes,
                      const VecX& w, const std::vector<int>& free_index, const MatX& X, const MatX& M,
                      const Material& material, CoarsenedParts& parts) {
  int num_parts = 0;
  const std::vector<int> vertex_part = coarsening_vertex_parts(fine_rest.rows(), fine_tets, num_parts);
  parts.stiffness.assign(num_parts, MatX());
  parts.fit.assign(num_parts, Positions::Zero(num_nodes, 3));
  for (int p = 0; p < num_parts; ++p) {
    std::vector<Eigen::Index> rows;  // tets of part p
    for (Eigen::Index t = 0; t < fine_tets.rows(); ++t)
      if (vertex_part[fine_tets(t, 0)] == p) rows.push_back(t);
    Tets tets(static_cast<Eigen::Index>(rows.size()), 4);
    for (std::size_t k = 0; k < rows.size(); ++k) tets.row(static_cast<Eigen::Index>(k)) = fine_tets.row(rows[k]);
    std::vector<Eigen::Triplet<double>> t, tf;
    ElasticBody(fine_rest, tets, material).add_hessian_triplets(fine_rest, t, 0, /*project=*/false);
    for (const auto& e : t)
      if (free_index[e.row()] >= 0 && free_index[e.col()] >= 0)
        tf.emplace_back(free_index[e.row()], free_index[e.col()], e.value());
    Eigen::SparseMatrix<double> Kpart(X.rows(), X.rows());
    Kpart.setFromTriplets(tf.begin(), tf.end());
    const MatX B = X.transpose() * (Kpart * X);
    const MatX Kp = M.transpose() * B * M;
    parts.stiffness[p] = 0.5 * (Kp + Kp.transpose());

    // The fit of part p's fine vertices: b_i = sum_v W_v J_vi (X_v - C_p).
    Vec3 centroid = Vec3::Zero();
    double mass = 0.0;
    for (Eigen::Index v = 0; v < fine_rest.rows(); ++v)
      if (vertex_part[v] == p) {
        centroid += w[v] * fine_rest.row(v).transpose();
        mass += w[v];
      }
    centroid /= mass;
    for (Eigen::Index v = 0; v < fine_rest.rows(); ++v)
      if (vertex_part[v] == p)
        for (int j = 0; j < 4; ++j)
          parts.fit[p].row(to_nodes.nodes(v, j)) +=
              to_nodes.weights(v, j) * w[v] * (fine_rest.row(v) - centroid.transpose());
  }
}

}  // namespace

MatX coarsened_stiffness(const Positions& fine_rest, const Tets& fine_tets, const NodeMap& to_nodes, int num_nodes,
                         const Material& material, const std::string& source, CoarsenedParts* parts) {
  const Eigen::Index nf = 3 * fine_rest.rows();
  const Eigen::Index nc = 3 * static_cast<Eigen::Index>(num_nodes);

  std::vector<Eigen::Triplet<double>> t;
  ElasticBody(fine_rest, fine_tets, material).add_hessian_triplets(fine_rest, t, 0, /*project=*/false);
  Sparse K(nf, nf);
  K.setFromTriplets(t.begin(), t.end());

  // J (fine dof <- node dof) and C = J^T W, W the fine lumped volumes: the fit
  // weighs the vertices as the embedding's mass matrix J^T M J does.
  const VecX w = lumped_mass(fine_rest, fine_tets, tet_signed_volumes(fine_rest, fine_tets), 1.0);
  std::vector<Eigen::Triplet<double>> jt, ct;
  VecX node_weight = VecX::Zero(num_nodes);
  for (Eigen::Index v = 0; v < fine_rest.rows(); ++v)
    for (int j = 0; j < 4; ++j) {
      const int node = to_nodes.nodes(v, j);
      const double weight = to_nodes.weights(v, j);
      if (weight == 0.0) continue;
      node_weight[node] += std::abs(weight) * w[v];
      for (int i = 0; i < 3; ++i) {
        jt.emplace_back(3 * v + i, 3 * node + i, weight);
        ct.emplace_back(3 * node + i, 3 * v + i, weight * w[v]);
      }
    }
  for (int node = 0; node < num_nodes; ++node)
    if (node_weight[node] == 0.0)
      throw InputError(source + ": node " + std::to_string(node) +
                       " of the embedding carries no vertex of the fine mesh, so its coarsened stiffness is undefined "
                       "(a finer mesh than the body's must put a vertex in every embedding tet)");
  Sparse J(nf, nc), C(nc, nf);
  J.setFromTriplets(jt.begin(), jt.end());
  C.setFromTriplets(ct.begin(), ct.end());
  // A node motion that moves no fine vertex (J v = 0) would have neither mass nor
  // coarsened stiffness: refuse such an embedding rather than fail in the solve.
  MatX fit = MatX::Zero(num_nodes, num_nodes);  // J^T W J per node (the same in x, y, z)
  for (Eigen::Index v = 0; v < fine_rest.rows(); ++v)
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b)
        fit(to_nodes.nodes(v, a), to_nodes.nodes(v, b)) += to_nodes.weights(v, a) * to_nodes.weights(v, b) * w[v];
  const VecX fit_eigenvalues = Eigen::SelfAdjointEigenSolver<MatX>(fit, Eigen::EigenvaluesOnly).eigenvalues();
  if (fit_eigenvalues[0] < 1e-10 * fit_eigenvalues[num_nodes - 1])
    throw InputError(source + ": some motion of the embedding's nodes moves no vertex of the fine mesh (the map's "
                     "fit matrix is singular), so its coarsened stiffness is undefined; use a coarser embedding or "
                     "a finer mesh");
  // Constraint rows scaled to the stiffness: the solution is the same, the dense
  // saddle-point solve below better conditioned.
  const Sparse CCt = C * C.transpose();
  C *= K.diagonal().cwiseAbs().maxCoeff() / CCt.diagonal().cwiseSqrt().maxCoeff();

  // min 1/2 u^T K u subject to C u = b. K is singular only on the rigid motions:
  // write u = u_p + R r with u_p zero on 6 dofs that fix a rigid motion (K_p, the
  // stiffness on the other dofs, is positive definite) and r in R^6. Then
  //   [-S  C R; (C R)^T  0] [mu; r] = [b; 0],  S = C_p K_p^{-1} C_p^T,
  // and the energy 1/2 u^T K u = 1/2 mu^T S mu, so K_c = M^T S M with mu = M q.
  const MatX R = rigid_modes(fine_rest);
  Eigen::ColPivHouseholderQR<MatX> qr(R.transpose());
  std::vector<char> pinned(nf, 0);
  for (int k = 0; k < 6; ++k) pinned[qr.colsPermutation().indices()[k]] = 1;
  std::vector<int> free_index(nf, -1);
  int nfree = 0;
  for (Eigen::Index d = 0; d < nf; ++d)
    if (!pinned[d]) free_index[d] = nfree++;
  std::vector<Eigen::Triplet<double>> kp;
  for (Eigen::Index k = 0; k < K.outerSize(); ++k)
    for (Sparse::InnerIterator it(K, k); it; ++it)
      if (free_index[it.row()] >= 0 && free_index[it.col()] >= 0)
        kp.emplace_back(free_index[it.row()], free_index[it.col()], it.value());
  Sparse Kp(nfree, nfree);
  Kp.setFromTriplets(kp.begin(), kp.end());
  MatX Ctp = MatX::Zero(nfree, nc);  // C^T on the free dofs
  for (Eigen::Index d = 0; d < C.outerSize(); ++d)
    if (free_index[d] >= 0)
      for (Sparse::InnerIterator it(C, d); it; ++it) Ctp(free_index[d], it.row()) = it.value();

  LinearSolver solver;
  VecX first;
  MatX X;  // K_p^{-1} C_p^T, all columns in one solve
  if (!solver.solve(Kp, Ctp.col(0), first) || !solver.solve_again(Ctp, X))
    throw InputError(source + ": coarsening: the fine mesh's stiffness is not positive definite");
  const MatX S = Ctp.transpose() * X;
  const MatX CR = C * R;
  MatX saddle = MatX::Zero(nc + 6, nc + 6);
  saddle.topLeftCorner(nc, nc) = -S;
  saddle.topRightCorner(nc, 6) = CR;
  saddle.bottomLeftCorner(6, nc) = CR.transpose();
  MatX rhs = MatX::Zero(nc + 6, nc);
  rhs.topRows(nc) = MatX(C * J);
  const MatX M = saddle.fullPivLu().solve(rhs).topRows(nc);
  const MatX Kc = M.transpose() * S * M;
  if (parts) split_into_parts(fine_rest, fine_tets, to_nodes, num_nodes, w, free_index, X, M, material, *parts);
  return 0.5 * (Kc + Kc.transpose());
}

}  // namespace eipc
