// Harmonic coarsening (coarsened_stiffness.hpp) against a dense saddle-point
// oracle, the identity embedding, and the P1 embedding it must be softer than.
#include "eipc/elasticity/elastic_body.hpp"
#include "eipc/elasticity/rotated_linear_elasticity.hpp"
#include "eipc/elasticity/lumped_mass.hpp"
#include "eipc/embedding/coarsened_stiffness.hpp"
#include "eipc/embedding/point_location.hpp"
#include "eipc/mesh/volume.hpp"
#include "eipc/testing/box_mesh.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>

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

/// Rigid motions of the nodes cost nothing in K (up to 1e-9 of `scale`).
void check_ignores_rigid_motions(const MatX& K, const Positions& nodes, double scale) {
  const Vec3 c = nodes.colwise().mean().transpose();
  for (int k = 0; k < 3; ++k) {
    VecX shift = VecX::Zero(K.rows()), turn = VecX::Zero(K.rows());
    for (Eigen::Index n = 0; n < nodes.rows(); ++n) {
      shift[3 * n + k] = 1.0;
      turn.segment<3>(3 * n) = Vec3::Unit(k).cross(nodes.row(n).transpose() - c);
    }
    CHECK((K * shift).norm() < 1e-9 * scale);
    CHECK((K * turn).norm() < 1e-9 * scale * turn.norm());
  }
}

MatX coarsen(const TetMesh& coarse, const TetMesh& fine, const std::string& source, CoarsenedParts* parts = nullptr) {
  SimulationNodes nodes;
  nodes.node_rest = coarse.vertices;
  nodes.elements = coarse.tets;
  return coarsened_stiffness(fine.vertices, fine.tets, locate_in_nodes(nodes, fine.vertices),
                             static_cast<int>(coarse.vertices.rows()), kRubber, source, parts);
}

/// A bar: fine_regions splits it into parts along its length.
TetMesh bar_mesh() { return box_tet_mesh(Vec3(0, 0, 0), Vec3(0.06, 0.02, 0.02), 6, 2, 2); }

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
  check_ignores_rigid_motions(Kc, coarse.vertices, Kc.norm());
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

TEST_CASE("fine regions: k-means clusters of the tets, deterministic", "[embedding]") {
  const TetMesh fine = bar_mesh();
  const std::vector<int> r = fine_regions(fine.vertices, fine.tets, 3);
  CHECK(r == fine_regions(fine.vertices, fine.tets, 3));
  CHECK(*std::max_element(r.begin(), r.end()) == 2);
  CHECK(r[0] == 0);
  // Three slabs along x: every region's tets lie in one third of the bar.
  for (int k = 0; k < 3; ++k) {
    double lo = 1.0, hi = -1.0;
    for (Eigen::Index t = 0; t < fine.tets.rows(); ++t)
      if (r[t] == k)
        for (int j = 0; j < 4; ++j) {
          lo = std::min(lo, fine.vertices(fine.tets(t, j), 0));
          hi = std::max(hi, fine.vertices(fine.tets(t, j), 0));
        }
    CHECK(hi - lo < 0.025);
  }
  CHECK_THROWS_AS(fine_regions(fine.vertices, fine.tets, 0), InputError);
  CHECK(fine_regions(fine.vertices, fine.tets, 1) == std::vector<int>(fine.tets.rows(), 0));
}

TEST_CASE("coarsened stiffness per region: the parts sum to K_c and each ignores rigid motions", "[embedding]") {
  const TetMesh fine = bar_mesh();
  const TetMesh coarse = box_tet_mesh(Vec3(-0.001, -0.001, -0.001), Vec3(0.061, 0.021, 0.021), 3, 1, 1);
  CoarsenedParts parts;
  parts.tet_part = fine_regions(fine.vertices, fine.tets, 3);
  const MatX Kc = coarsen(coarse, fine, "test", &parts);
  REQUIRE(parts.stiffness.size() == 3);
  REQUIRE(parts.fit.size() == 3);
  CHECK((parts.stiffness[0] + parts.stiffness[1] + parts.stiffness[2] - Kc).norm() < 1e-9 * Kc.norm());
  for (const MatX& Kp : parts.stiffness) {
    CHECK(Kp.norm() > 0.05 * Kc.norm());
    check_ignores_rigid_motions(Kp, coarse.vertices, Kc.norm());
    Eigen::SelfAdjointEigenSolver<MatX> eig(Kp);
    CHECK(eig.eigenvalues().minCoeff() > -1e-9 * Kc.norm());
  }
  // The fits: A_p at rest is part p's (symmetric) second moment, so R_p = I there.
  for (const Positions& b : parts.fit) {
    const Mat3 A = coarse.vertices.transpose() * b;
    CHECK((A - A.transpose()).norm() < 1e-12 * A.norm());
    CHECK(b.colwise().sum().norm() < 1e-12 * b.norm());
  }
  // The per-part energy: its Hessian at rest is K_c; exact gradient away from it.
  const RotatedLinearElasticity e(coarse.vertices, parts.stiffness, parts.fit);
  VecX g;
  MatX H;
  e.gradient_and_hessian(coarse.vertices, g, H);
  CHECK(g.norm() < 1e-12 * Kc.norm());
  CHECK((H - Kc).norm() < 1e-9 * Kc.norm());
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Positions q = coarse.vertices;
  for (Eigen::Index i = 0; i < q.size(); ++i) q.data()[i] += 0.002 * u(rng);
  e.energy_and_gradient(q, g);
  for (Eigen::Index k = 0; k < g.size(); ++k) {
    Positions qp = q, qm = q;
    qp.data()[k] += 1e-7;
    qm.data()[k] -= 1e-7;
    const double fd = (e.energy(qp) - e.energy(qm)) / 2e-7;
    CHECK(fd == Approx(g[k]).margin(1e-6 * g.norm()));
  }
}

TEST_CASE("coarsened stiffness per region of an embedding equal to the fine mesh: the regions' own stiffness",
          "[embedding]") {
  const TetMesh fine = bar_mesh();
  CoarsenedParts parts;
  parts.tet_part = fine_regions(fine.vertices, fine.tets, 2);
  coarsen(fine, fine, "test", &parts);
  REQUIRE(parts.stiffness.size() == 2);
  for (int p = 0; p < 2; ++p) {
    TetMesh part{fine.vertices, Tets()};
    std::vector<Eigen::Index> rows;
    for (Eigen::Index t = 0; t < fine.tets.rows(); ++t)
      if (parts.tet_part[t] == p) rows.push_back(t);
    part.tets.resize(static_cast<Eigen::Index>(rows.size()), 4);
    for (std::size_t k = 0; k < rows.size(); ++k) part.tets.row(static_cast<Eigen::Index>(k)) = fine.tets.row(rows[k]);
    const MatX Kf = fine_stiffness(part);
    CHECK((parts.stiffness[p] - Kf).norm() < 1e-8 * Kf.norm());
  }
  // Small strain in a large rotation: the corotated tets' energy.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Positions q = fine.vertices;
  for (Eigen::Index i = 0; i < q.size(); ++i) q.data()[i] += 1e-4 * 0.01 * u(rng);
  const Mat3 Q = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  q = (q * Q.transpose()).eval();
  const RotatedLinearElasticity e(fine.vertices, parts.stiffness, parts.fit);
  const double tets = ElasticBody(fine.vertices, fine.tets, kRubber).energy(q);
  CHECK(e.energy(q) == Approx(tets).epsilon(1e-2));
}
