#include "eipc/embedding/coarsened_stiffness.hpp"

#include "eipc/elasticity/elastic_body.hpp"
#include "eipc/embedding/point_location.hpp"
#include "eipc/elasticity/lumped_mass.hpp"
#include "eipc/mesh/volume.hpp"
#include "eipc/optim/linear_solver.hpp"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <algorithm>
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
                      const std::vector<int>& free_index, const MatX& X, const MatX& M, const Material& material,
                      CoarsenedParts& parts) {
  const int num_parts = parts.tet_part.empty() ? 0 : *std::max_element(parts.tet_part.begin(), parts.tet_part.end()) + 1;
  parts.stiffness.assign(num_parts, MatX());
  parts.fit.assign(num_parts, Positions::Zero(num_nodes, 3));
  for (int p = 0; p < num_parts; ++p) {
    std::vector<Eigen::Index> rows;  // tets of part p
    for (Eigen::Index t = 0; t < fine_tets.rows(); ++t)
      if (parts.tet_part[t] == p) rows.push_back(t);
    Tets tets(static_cast<Eigen::Index>(rows.size()), 4);
    for (std::size_t k = 0; k < rows.size(); ++k) tets.row(static_cast<Eigen::Index>(k)) = fine_tets.row(rows[k]);
    // K^(p) on the free dofs of the part's own vertices only, and X's rows there: the
    // products then cost the part's size, not the whole fine mesh's once per part.
    std::vector<int> local(free_index.size(), -1);
    std::vector<int> part_rows;  // rows of X, in local order
    for (Eigen::Index k = 0; k < tets.rows(); ++k)
      for (int a = 0; a < 4; ++a)
        for (int i = 0; i < 3; ++i) {
          const int dof = 3 * tets(k, a) + i;
          if (free_index[dof] >= 0 && local[dof] < 0) {
            local[dof] = static_cast<int>(part_rows.size());
            part_rows.push_back(free_index[dof]);
          }
        }
    std::vector<Eigen::Triplet<double>> t, tf;
    ElasticBody(fine_rest, tets, material).add_hessian_triplets(fine_rest, t, 0, /*project=*/false);
    for (const auto& e : t)
      if (local[e.row()] >= 0 && local[e.col()] >= 0) tf.emplace_back(local[e.row()], local[e.col()], e.value());
    const auto n = static_cast<Eigen::Index>(part_rows.size());
    Eigen::SparseMatrix<double> Kpart(n, n);
    Kpart.setFromTriplets(tf.begin(), tf.end());
    const MatX Xpart = X(part_rows, Eigen::all);
    const MatX B = Xpart.transpose() * (Kpart * Xpart);
    const MatX Kp = M.transpose() * B * M;
    parts.stiffness[p] = 0.5 * (Kp + Kp.transpose());

    // The fit of part p's fine vertices: b_i = sum_v W_v J_vi (X_v - C_p), W the
    // lumped volumes of the part's own tets.
    const VecX w = lumped_mass(fine_rest, tets, tet_signed_volumes(fine_rest, tets), 1.0);
    const Vec3 centroid = (w.transpose() * fine_rest).transpose() / w.sum();
    for (Eigen::Index v = 0; v < fine_rest.rows(); ++v)
      if (w[v] != 0.0)
        for (int j = 0; j < 4; ++j)
          parts.fit[p].row(to_nodes.nodes(v, j)) +=
              to_nodes.weights(v, j) * w[v] * (fine_rest.row(v) - centroid.transpose());
  }
}

}  // namespace

std::vector<int> fine_regions(const Positions& rest, const Tets& tets, int count) {
  const Eigen::Index m = tets.rows();
  if (count < 1 || count > m)
    throw InputError("fine_regions: " + std::to_string(count) + " regions of " + std::to_string(m) + " tets");
  Positions centre(m, 3);
  const VecX volume = tet_signed_volumes(rest, tets).cwiseAbs();
  for (Eigen::Index t = 0; t < m; ++t)
    centre.row(t) = 0.25 * (rest.row(tets(t, 0)) + rest.row(tets(t, 1)) + rest.row(tets(t, 2)) + rest.row(tets(t, 3)));
  // Farthest-point seeds from the centre farthest from the centroid, then Lloyd.
  Positions seeds(count, 3);
  VecX nearest(m);
  Eigen::Index first;
  // The mean evaluated once: inside the row-wise norm Eigen would recompute it for every
  // row (m^2 work: 7-15 s for the 16k bear's 88k tets).
  const Eigen::RowVector3d centroid = centre.colwise().mean();
  (centre.rowwise() - centroid).rowwise().squaredNorm().maxCoeff(&first);
  seeds.row(0) = centre.row(first);
  nearest = (centre.rowwise() - seeds.row(0)).rowwise().squaredNorm();
  for (int k = 1; k < count; ++k) {
    Eigen::Index next;
    nearest.maxCoeff(&next);
    seeds.row(k) = centre.row(next);
    nearest = nearest.cwiseMin((centre.rowwise() - seeds.row(k)).rowwise().squaredNorm());
  }
  std::vector<int> region(m, 0);
  for (int iteration = 0; iteration < 30; ++iteration) {
    for (Eigen::Index t = 0; t < m; ++t) {
      Eigen::Index k;
      (seeds.rowwise() - centre.row(t)).rowwise().squaredNorm().minCoeff(&k);
      region[t] = static_cast<int>(k);
    }
    Positions sum = Positions::Zero(count, 3);
    VecX mass = VecX::Zero(count);
    for (Eigen::Index t = 0; t < m; ++t) {
      sum.row(region[t]) += volume[t] * centre.row(t);
      mass[region[t]] += volume[t];
    }
    for (int k = 0; k < count; ++k)
      if (mass[k] > 0.0) seeds.row(k) = sum.row(k) / mass[k];
  }
  // Number the regions that kept tets 0..
  std::vector<int> id(count, -1);
  int used = 0;
  for (int& r : region) {
    if (id[r] < 0) id[r] = used++;
    r = id[r];
  }
  return region;
}

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
  if (parts) {
    if (parts->tet_part.size() != static_cast<std::size_t>(fine_tets.rows()))
      throw InputError(source + ": coarsening: " + std::to_string(parts->tet_part.size()) + " tet parts for " +
                       std::to_string(fine_tets.rows()) + " tets");
    split_into_parts(fine_rest, fine_tets, to_nodes, num_nodes, free_index, X, M, material, *parts);
  }
  return 0.5 * (Kc + Kc.transpose());
}

}  // namespace eipc
