// Harmonic coarsening (coarsened_stiffness.hpp) against a dense saddle-point
// oracle, the identity embedding, and the P1 embedding it must be softer than.
#include "eipc/elasticity/elastic_body.hpp"
#include "eipc/elasticity/lumped_mass.hpp"
#include "eipc/embedding/coarsened_stiffness.hpp"
#include "eipc/embedding/point_location.hpp"
#include "eipc/mesh/volume.hpp"
#include "eipc/testing/box_mesh.hpp"

#include <Eigen/Eigenvalues>
#include <catch2/catch.hpp>

using namespace eipc;

namespace {

const Material kRubber{ElasticModel::linear_corotated, 5e4, 0.45, 1000};

MatX fine_stiffness(const TetMesh& m) {
  std::vector<Eigen::Triplet<double>> t;
  ElasticBody(m.vertices, m.tets, kRubber).add_hessian_triplets(m.vertices, t, 0, false);
  Eigen::SparseMatrix<double> K(3 * m.vertices.rows(), 3 * m.vertices.rows());
  K.setFromTriplets(t.begin(), t.end());
  return MatX(K);
}

MatX coarsen(const TetMesh& coarse, const TetMesh& fine, const std::string& source) {
  SimulationNodes nodes;
  nodes.node_rest = coarse.vertices;
  nodes.elements = coarse.tets;
  return coarsened_stiffness(fine.vertices, fine.tets, locate_in_nodes(nodes, fine.vertices),
                             static_cast<int>(coarse.vertices.rows()), kRubber, source);
}

/// J: the P1 map of the coarse mesh at the fine vertices (dense, dof-wise).
MatX p1_map(const TetMesh& coarse, const Positions& fine) {
  MatX J = MatX::Zero(3 * fine.rows(), 3 * coarse.vertices.rows());
  const std::vector<TetLocation> loc = locate_points(coarse.vertices, coarse.tets, fine);
  for (Eigen::Index v = 0; v < fine.rows(); ++v)
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 3; ++i) J(3 * v + i, 3 * coarse.tets(loc[v].tet, j) + i) += loc[v].weights[j];
  return J;
}

}  // namespace

TEST_CASE("coarsened stiffness: the dense saddle-point solution, softer than P1", "[embedding]") {
  const TetMesh fine = box_tet_mesh(Vec3(0, 0, 0), Vec3(0.04, 0.02, 0.02), 4, 2, 2);
  const TetMesh coarse = box_tet_mesh(Vec3(-0.001, -0.001, -0.001), Vec3(0.041, 0.021, 0.021), 2, 1, 1);
  const MatX Kc = coarsen(coarse, fine, "test");

  // Oracle: min 1/2 u^T K u subject to J^T W u = J^T W J q, dense.
  const MatX K = fine_stiffness(fine);
  const MatX J = p1_map(coarse, fine.vertices);
  const VecX w = lumped_mass(fine.vertices, fine.tets, tet_signed_volumes(fine.vertices, fine.tets), 1.0);
  VecX w3(3 * w.size());
  for (Eigen::Index v = 0; v < w.size(); ++v) w3.segment<3>(3 * v).setConstant(w[v]);
  const MatX C = J.transpose() * w3.asDiagonal() * (1.0 / w.maxCoeff());
  const Eigen::Index nf = K.rows(), nc = C.rows();
  MatX A = MatX::Zero(nf + nc, nf + nc);
  A.topLeftCorner(nf, nf) = K;
  A.topRightCorner(nf, nc) = C.transpose();
  A.bottomLeftCorner(nc, nf) = C;
  MatX rhs = MatX::Zero(nf + nc, nc);
  rhs.bottomRows(nc) = C * J;
  const MatX Phi = A.fullPivLu().solve(rhs).topRows(nf);
  const MatX oracle = Phi.transpose() * K * Phi;
  CHECK((Kc - oracle).norm() < 1e-8 * oracle.norm());

  // An affine motion of the nodes: the affine fine field has that fit, so the
  // least energy with it is at most the affine field's (the fine field relaxes
  // inside the coarse tets, which P1 forbids: the locking).
  Mat3 affine;
  affine << 0.01, 0.002, -0.003, 0.0, -0.02, 0.004, 0.001, 0.0, 0.015;
  const Positions q = coarse.vertices * affine.transpose();
  const Positions u = fine.vertices * affine.transpose();
  const VecX qf = Eigen::Map<const VecX>(q.data(), q.size()), uf = Eigen::Map<const VecX>(u.data(), u.size());
  CHECK(qf.dot(Kc * qf) <= uf.dot(K * uf) * (1 + 1e-10));
  CHECK(qf.dot(Kc * qf) > 0.5 * uf.dot(K * uf));

  // Softer than the P1 (Galerkin) reading of the same nodes, strictly somewhere.
  const MatX Kp1 = J.transpose() * K * J;
  Eigen::SelfAdjointEigenSolver<MatX> gap(Kp1 - Kc);
  CHECK(gap.eigenvalues().minCoeff() > -1e-9 * Kp1.norm());
  CHECK(Kc.trace() < 0.99 * Kp1.trace());

  // Rigid motions of the nodes cost nothing.
  const Vec3 c = coarse.vertices.colwise().mean().transpose();
  for (int k = 0; k < 3; ++k) {
    VecX shift = VecX::Zero(nc), turn = VecX::Zero(nc);
    for (Eigen::Index n = 0; n < coarse.vertices.rows(); ++n) {
      shift[3 * n + k] = 1.0;
      turn.segment<3>(3 * n) = Vec3::Unit(k).cross(coarse.vertices.row(n).transpose() - c);
    }
    CHECK((Kc * shift).norm() < 1e-9 * Kc.norm());
    CHECK((Kc * turn).norm() < 1e-9 * Kc.norm() * turn.norm());
  }
}

TEST_CASE("coarsened stiffness of an embedding equal to the fine mesh is the fine stiffness", "[embedding]") {
  const TetMesh fine = box_tet_mesh(Vec3(0, 0, 0), Vec3(0.03, 0.02, 0.02), 3, 2, 2);
  const MatX Kc = coarsen(fine, fine, "test");
  const MatX K = fine_stiffness(fine);
  CHECK((Kc - K).norm() < 1e-8 * K.norm());
}

TEST_CASE("coarsened stiffness refuses a node no fine vertex depends on", "[embedding]") {
  const TetMesh fine = box_tet_mesh(Vec3(0, 0, 0), Vec3(0.02, 0.02, 0.02), 2, 2, 2);
  const TetMesh coarse = box_tet_mesh(Vec3(-0.001, -0.001, -0.001), Vec3(0.1, 0.021, 0.021), 2, 1, 1);
  CHECK_THROWS_WITH(coarsen(coarse, fine, "coarse.msh"),
                    Catch::Contains("coarse.msh") && Catch::Contains("carries no vertex of the fine mesh"));
}
