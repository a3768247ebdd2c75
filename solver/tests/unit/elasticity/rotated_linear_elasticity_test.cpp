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
    Eigen::SelfAdjointEigenSolver<MatX> eig(H);
    CHECK(eig.eigenvalues().minCoeff() > -1e-10 * eig.eigenvalues().maxCoeff());
  }

  // Zero strain in any rotation: the Gauss-Newton Hessian is the exact one.
  const Positions q0 = moved(box.vertices, rng, 0.0, Q);
  VecX g;
  MatX H;
  e.gradient_and_hessian(q0, g, H);
  const MatX fd = fd_jacobian(flat(q0), [&](const VecX& x) {
    VecX gx;
    e.energy_and_gradient(unflat(x), gx);
    return gx;
  }, 1e-7);
  CHECK(rel_error(H, fd) < 1e-6 * H.norm());
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
