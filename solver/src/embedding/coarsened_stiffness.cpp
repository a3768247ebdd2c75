#include "eipc/embedding/coarsened_stiffness.hpp"

#include "eipc/elasticity/elastic_body.hpp"
#include "eipc/embedding/point_location.hpp"
#include "eipc/mesh/volume.hpp"
#include "eipc/optim/linear_solver.hpp"

#include <Eigen/Dense>
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

MatX coarsened_stiffness(const SimulationNodes& nodes, const Positions& fine_rest, const Tets& fine_tets,
                         const Material& material, const std::string& source) {
  const Eigen::Index nf = 3 * fine_rest.rows();
  const Eigen::Index nc = 3 * nodes.num_nodes();

  std::vector<Eigen::Triplet<double>> t;
  ElasticBody(fine_rest, fine_tets, material).add_hessian_triplets(fine_rest, t, 0, /*project=*/false);
  Sparse K(nf, nf);
  K.setFromTriplets(t.begin(), t.end());

  // J (fine dof <- node dof, barycentric weights) and C = int N_c^T N_f dV, the
  // volume-weighted fit, integrated at the four quarter points of every fine tet
  // (fine weights 5/8 at its corner, 1/8 at the others), as embed_mesh spreads volume.
  const std::vector<TetLocation> loc = locate_points(nodes.node_rest, nodes.elements, fine_rest);
  std::vector<Eigen::Triplet<double>> jt;
  for (Eigen::Index v = 0; v < fine_rest.rows(); ++v)
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 3; ++i) jt.emplace_back(3 * v + i, 3 * nodes.elements(loc[v].tet, j) + i, loc[v].weights[j]);
  Sparse J(nf, nc);
  J.setFromTriplets(jt.begin(), jt.end());

  const VecX volume = tet_signed_volumes(fine_rest, fine_tets);
  Positions quarter(4 * fine_tets.rows(), 3);
  for (Eigen::Index t = 0; t < fine_tets.rows(); ++t) {
    Eigen::RowVector3d centroid = Eigen::RowVector3d::Zero();
    for (int j = 0; j < 4; ++j) centroid += 0.25 * fine_rest.row(fine_tets(t, j));
    for (int j = 0; j < 4; ++j) quarter.row(4 * t + j) = 0.5 * (centroid + fine_rest.row(fine_tets(t, j)));
  }
  const std::vector<TetLocation> qloc = locate_points(nodes.node_rest, nodes.elements, quarter);
  std::vector<Eigen::Triplet<double>> ct;
  VecX node_weight = VecX::Zero(nodes.num_nodes());
  for (Eigen::Index t = 0; t < fine_tets.rows(); ++t)
    for (int k = 0; k < 4; ++k) {
      const TetLocation& l = qloc[4 * t + k];
      const double dv = 0.25 * std::abs(volume[t]);
      for (int a = 0; a < 4; ++a) {
        const int node = nodes.elements(l.tet, a);
        node_weight[node] += std::abs(l.weights[a]) * dv;
        for (int j = 0; j < 4; ++j) {
          const double fw = j == k ? 0.625 : 0.125;
          for (int i = 0; i < 3; ++i) ct.emplace_back(3 * node + i, 3 * fine_tets(t, j) + i, l.weights[a] * fw * dv);
        }
      }
    }
  for (int node = 0; node < nodes.num_nodes(); ++node)
    if (node_weight[node] == 0.0)
      throw InputError(source + ": node " + std::to_string(node) +
                       " of the embedding has none of the fine mesh's volume in its tets, so its coarsened stiffness "
                       "is undefined");
  Sparse C(nc, nf);
  C.setFromTriplets(ct.begin(), ct.end());
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
  const MatX Ct = MatX(C.transpose());  // nf x nc
  MatX Ctp(nfree, nc);
  for (Eigen::Index d = 0; d < nf; ++d)
    if (free_index[d] >= 0) Ctp.row(free_index[d]) = Ct.row(d);

  LinearSolver solver;
  MatX X(nfree, nc);  // K_p^{-1} C_p^T
  for (Eigen::Index c = 0; c < nc; ++c) {
    VecX x;
    const bool ok = c == 0 ? solver.solve(Kp, Ctp.col(c), x) : solver.solve_again(Ctp.col(c), x);
    if (!ok) throw InputError(source + ": coarsening: the fine mesh's stiffness is not positive definite");
    X.col(c) = x;
  }
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
  return 0.5 * (Kc + Kc.transpose());
}

}  // namespace eipc
