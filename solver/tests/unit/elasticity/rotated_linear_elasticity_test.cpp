// RotatedLinearElasticity: exact gradient, rigid invariance, a PSD Hessian that is
// exact at zero strain, and small-strain agreement with the corotated tets.
#include "eipc/elasticity/elastic_body.hpp"
#include "eipc/elasticity/rotated_linear_elasticity.hpp"

#include "elasticity_test_helpers.hpp"

#include <Eigen/Eigenvalues>
#include <catch2/catch.hpp>

using namespace eipc;
using namespace eipc::test;

namespace {

Material rubber() {
  return Material{ElasticModel::linear_corotated, 5e4, 0.45, 1000};
}

/// The box's linear stiffness (the corotated tets' Hessian at rest).
MatX rest_stiffness(const BoxMesh& box) {
  const ElasticBody body(box.vertices, box.tets, rubber());
  std::vector<Eigen::Triplet<double>> t;
  body.add_hessian_triplets(box.vertices, t, 0, false);
  Eigen::SparseMatrix<double> K(3 * box.vertices.rows(), 3 * box.vertices.rows());
  K.setFromTriplets(t.begin(), t.end());
  return MatX(K);
}

Positions unflat(const VecX& x) { return Eigen::Map<const Positions>(x.data(), x.size() / 3, 3); }

/// The Hessian at q equals the finite difference of the gradient (where it is
/// exact: the Gauss-Newton Hessian at zero strain).
void check_hessian_is_gradient_fd(const RotatedLinearElasticity& e, const Positions& q) {
  VecX g;
  MatX H;
  e.gradient_and_hessian(q, g, H);
  const MatX fd = fd_jacobian(flat(q), [&](const VecX& x) {
    VecX gx;
    e.energy_and_gradient(unflat(x), gx);
    return gx;
  }, 1e-7);
  CHECK(rel_error(H, fd) < 1e-6 * H.norm());
}

/// rotation * (rest + strain * noise) + shift
Positions moved(const Positions& rest, std::mt19937& rng, double strain, const Mat3& rotation) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Positions q = rest;
  for (Eigen::Index i = 0; i < q.size(); ++i) q.data()[i] += strain * u(rng);
  return ((q * rotation.transpose()).rowwise() + Eigen::RowVector3d(0.3, -0.2, 0.5)).eval();
}

}  // namespace

TEST_CASE("rotated linear elasticity: exact gradient, rigid invariance, PSD Hessian", "[elasticity]") {
  std::mt19937 rng(7);
  const BoxMesh box = box_mesh(2, 1, 2, 0.05);
  const RotatedLinearElasticity e(box.vertices, rest_stiffness(box));
  const Mat3 Q = random_rotation(rng);

  CHECK(e.energy(box.vertices) == Approx(0.0).margin(1e-12));
  CHECK(e.energy(moved(box.vertices, rng, 0.0, Q)) == Approx(0.0).margin(1e-9));

  for (double strain : {1e-3, 1e-2}) {
    const Positions q = moved(box.vertices, rng, strain * 0.05, Q);
    VecX g;
    const double E = e.energy_and_gradient(q, g);
    CHECK(E == Approx(e.energy(q)).epsilon(1e-14));
    const VecX fd = fd_gradient(flat(q), [&](const VecX& x) { return e.energy(unflat(x)); }, 1e-7);
    CHECK(rel_error(g, fd) < 1e-6 * std::max(1.0, g.norm()));
    // Rigidly moved again: same energy, gradient turned with it.
    const Mat3 P = random_rotation(rng);
    const Positions moved_again = (q * P.transpose()).rowwise() + Eigen::RowVector3d(-1.0, 2.0, 0.1);
    CHECK(e.energy(moved_again) == Approx(E).epsilon(1e-10));
    VecX g2;
    MatX H;
    e.gradient_and_hessian(moved_again, g2, H);
    CHECK(rel_error(unflat(g2), unflat(g) * P.transpose()) < 1e-9 * std::max(1.0, g.norm()));
    CHECK(H == H.transpose());  // bit for bit: the damping's products read its columns as rows
    Eigen::SelfAdjointEigenSolver<MatX> eig(H);
    CHECK(eig.eigenvalues().minCoeff() > -1e-10 * eig.eigenvalues().maxCoeff());
  }

  // Zero strain in any rotation: the Gauss-Newton Hessian is the exact one.
  const Positions q0 = moved(box.vertices, rng, 0.0, Q);
  check_hessian_is_gradient_fd(e, q0);
}

TEST_CASE("rotated linear elasticity agrees with the corotated tets at small strain", "[elasticity]") {
  std::mt19937 rng(11);
  const BoxMesh box = box_mesh(2, 2, 1, 0.05);
  const RotatedLinearElasticity e(box.vertices, rest_stiffness(box));
  const ElasticBody tets(box.vertices, box.tets, rubber());
  const Positions q = moved(box.vertices, rng, 1e-4 * 0.05, random_rotation(rng));
  CHECK(e.energy(q) == Approx(tets.energy(q)).epsilon(1e-2));
}

TEST_CASE("rotated linear elasticity refuses a stiffness of the wrong size", "[elasticity]") {
  const BoxMesh box = box_mesh(1, 1, 1);
  CHECK_THROWS_AS(RotatedLinearElasticity(box.vertices, MatX::Zero(3, 3)), InputError);
}

namespace {

/// Two boxes of 2 x 1 x 1 cubes side by side with a gap: two disconnected parts.
BoxMesh two_boxes(double h) {
  const BoxMesh a = box_mesh(2, 1, 1, h);
  BoxMesh m;
  const Eigen::Index n = a.vertices.rows();
  m.vertices.resize(2 * n, 3);
  m.vertices.topRows(n) = a.vertices;
  m.vertices.bottomRows(n) = a.vertices.rowwise() + Eigen::RowVector3d(0.0, 1.5 * h, 0.0);
  m.tets.resize(2 * a.tets.rows(), 4);
  m.tets.topRows(a.tets.rows()) = a.tets;
  m.tets.bottomRows(a.tets.rows()) = a.tets.array() + static_cast<int>(n);
  return m;
}

/// Part p's stiffness and fit (its own nodes, uniform weights) of two_boxes.
void box_parts(const BoxMesh& m, std::vector<MatX>& K, std::vector<Positions>& fit) {
  const Eigen::Index n = m.vertices.rows() / 2, t = m.tets.rows() / 2;
  for (int p = 0; p < 2; ++p) {
    BoxMesh part{m.vertices, m.tets.middleRows(p * t, t)};
    K.push_back(rest_stiffness(part));
    Positions b = Positions::Zero(2 * n, 3);
    const Positions own = m.vertices.middleRows(p * n, n);
    b.middleRows(p * n, n) = own.rowwise() - own.colwise().mean();
    fit.push_back(b);
  }
}

}  // namespace

TEST_CASE("rotated linear elasticity per part: one part is the one rotation", "[elasticity]") {
  std::mt19937 rng(5);
  const BoxMesh box = box_mesh(2, 1, 2, 0.05);
  const RotatedLinearElasticity one(box.vertices, rest_stiffness(box));
  const Positions centered = box.vertices.rowwise() - box.vertices.colwise().mean();
  const RotatedLinearElasticity parts(box.vertices, {rest_stiffness(box)}, {centered});
  const Positions q = moved(box.vertices, rng, 0.02 * 0.05, random_rotation(rng));
  CHECK(parts.energy(q) == Approx(one.energy(q)).epsilon(1e-13));
  VecX g1, g2;
  MatX H1, H2;
  one.gradient_and_hessian(q, g1, H1);
  parts.gradient_and_hessian(q, g2, H2);
  CHECK((g1 - g2).norm() < 1e-12 * g1.norm());
  CHECK((H1 - H2).norm() < 1e-12 * H1.norm());
}

TEST_CASE("rotated linear elasticity per part: exact gradient, each part's rotation free, PSD Hessian",
          "[elasticity]") {
  std::mt19937 rng(9);
  const double h = 0.05;
  const BoxMesh m = two_boxes(h);
  std::vector<MatX> K;
  std::vector<Positions> fit;
  box_parts(m, K, fit);
  const MatX K_sum = K[0] + K[1];
  const RotatedLinearElasticity e(m.vertices, K, fit);
  CHECK(e.num_parts() == 2);
  CHECK(e.energy(m.vertices) == Approx(0.0).margin(1e-12));

  // Each box turned on its own: no energy (one rotation would count it as strain).
  const Eigen::Index n = m.vertices.rows() / 2;
  Positions q = m.vertices;
  const Mat3 Q = random_rotation(rng);
  q.bottomRows(n) = (m.vertices.bottomRows(n) * Q.transpose()).rowwise() + Eigen::RowVector3d(0.1, 0.0, 0.0);
  CHECK(e.energy(q) == Approx(0.0).margin(1e-9));
  CHECK(RotatedLinearElasticity(m.vertices, K_sum).energy(q) > 1.0);

  for (double strain : {1e-3, 1e-2}) {
    Positions qs = moved(q, rng, strain * h, random_rotation(rng));
    VecX g;
    const double E = e.energy_and_gradient(qs, g);
    CHECK(E == Approx(e.energy(qs)).epsilon(1e-14));
    const VecX fd = fd_gradient(flat(qs), [&](const VecX& x) { return e.energy(unflat(x)); }, 1e-7);
    CHECK(rel_error(g, fd) < 1e-6 * std::max(1.0, g.norm()));
    MatX H;
    e.gradient_and_hessian(qs, g, H);
    CHECK(H == H.transpose());
    Eigen::SelfAdjointEigenSolver<MatX> eig(H);
    CHECK(eig.eigenvalues().minCoeff() > -1e-10 * eig.eigenvalues().maxCoeff());
  }

  // Zero strain, parts turned apart: the Gauss-Newton Hessian is the exact one.
  check_hessian_is_gradient_fd(e, q);
  // At rest it is the sum of the parts' stiffnesses.
  VecX g;
  MatX H;
  e.gradient_and_hessian(m.vertices, g, H);
  CHECK((H - K_sum).norm() < 1e-10 * K_sum.norm());
}
