#include "eipc/elasticity/tet_kinematics.hpp"

#include "eipc/elasticity/rotation_variant_svd.hpp"
#include "elasticity_test_helpers.hpp"

#include <Eigen/LU>
#include <catch2/catch.hpp>

using namespace eipc;

namespace {
Positions unit_tet() {
  Positions x(4, 3);
  x << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1;
  return x;
}
}  // namespace

TEST_CASE("tet volumes", "[elasticity][kinematics]") {
  const Positions x = unit_tet();
  Tets t(2, 4);
  t << 0, 1, 2, 3, 0, 2, 1, 3;  // second one inverted orientation
  CHECK(signed_tet_volume(x.row(0), x.row(1), x.row(2), x.row(3)) == Approx(1.0 / 6.0));
  CHECK(signed_tet_volume(x.row(0), x.row(2), x.row(1), x.row(3)) == Approx(-1.0 / 6.0));
  const VecX v = tet_volumes(x, t);
  CHECK(v[0] == Approx(1.0 / 6.0));
  CHECK(v[1] == Approx(1.0 / 6.0));
  // A unit cube split into 6 tets has volume 1.
  const auto box = test::box_mesh(1, 1, 1, 2.0);
  CHECK(tet_volumes(box.vertices, box.tets).sum() == Approx(8.0));
}

TEST_CASE("deformation gradient of an affine map is its linear part", "[elasticity][kinematics]") {
  std::mt19937 rng(3);
  Positions X = unit_tet() + Positions::Constant(4, 3, 0.1);
  X.row(3) << 0.3, 0.2, 1.4;
  Tets t(1, 4);
  t << 0, 1, 2, 3;
  const Mat3 Dm_inv = rest_shape_inverse(X, t, 0);
  const Mat3 A = test::random_matrix(rng, 1.0) + Mat3::Identity();
  const Vec3 b(0.3, -2.0, 5.0);
  Positions x(4, 3);
  for (int a = 0; a < 4; ++a) x.row(a) = (A * X.row(a).transpose() + b).transpose();
  CHECK((deformation_gradient(x, t, 0, Dm_inv) - A).norm() < 1e-12);
  // vec(F) = dFdx * x_tet exactly (F is linear in x).
  const TetJacobian J = deformation_gradient_jacobian(Dm_inv);
  CHECK((J * tet_coordinates(x, t, 0) - vectorize(A)).norm() < 1e-12);
  // and translations are in its null space
  Vec<12> shift;
  for (int a = 0; a < 4; ++a) shift.segment<3>(3 * a) = b;
  CHECK((J * shift).norm() < 1e-12);
}

TEST_CASE("degenerate rest tets are rejected", "[elasticity][kinematics]") {
  Positions x(4, 3);
  x << 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0;  // flat
  Tets t(1, 4);
  t << 0, 1, 2, 3;
  CHECK_THROWS_AS(rest_shape_inverse(x, t, 0), InputError);
}

TEST_CASE("rotation-variant SVD and polar rotation", "[elasticity][kinematics]") {
  std::mt19937 rng(11);
  for (const auto& [name, F] : test::sample_deformation_gradients(rng)) {
    INFO(name);
    const RotationVariantSvd s = rotation_variant_svd(F);
    CHECK(s.U.determinant() == Approx(1.0));
    CHECK(s.V.determinant() == Approx(1.0));
    CHECK((s.U * s.sigma.asDiagonal() * s.V.transpose() - F).norm() < 1e-12);
    CHECK((s.sigma[2] < 0.0) == (F.determinant() < 0.0));
    const Mat3 R = polar_rotation(F);
    CHECK((R.transpose() * R - Mat3::Identity()).norm() < 1e-12);
    CHECK(R.determinant() == Approx(1.0));
    const Mat3 S = R.transpose() * F;
    CHECK((S - S.transpose()).norm() < 1e-12);
  }
  // Of a rotation, the rotation itself.
  const Mat3 Q = test::random_rotation(rng);
  CHECK((polar_rotation(Q) - Q).norm() < 1e-12);
}

TEST_CASE("structured pull-backs equal the dense dFdx products", "[elasticity][kinematics]") {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    const Mat3 Dm_inv = test::random_matrix(rng, 1.0) + 2.0 * Mat3::Identity();
    const TetJacobian D = deformation_gradient_jacobian(Dm_inv);
    const Mat3 P = test::random_matrix(rng, 1.0);
    const Vec<12> g_dense = D.transpose() * vectorize(P);
    CHECK((pull_back_stress(P, Dm_inv) - g_dense).norm() <= 1e-13 * g_dense.norm());
    Mat<9> A = Mat<9>::Zero();
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) A.block<3, 3>(3 * i, 3 * j) = test::random_matrix(rng, 1.0);
    A = (A + A.transpose()).eval();
    const Mat<12> H_dense = D.transpose() * A * D;
    CHECK((pull_back_stress_derivative(A, Dm_inv) - H_dense).norm() <= 1e-13 * H_dense.norm());
  }
}
