// The warm polar rotation (Newton on the rotation from a nearby one) against
// the rotation-variant SVD's U V^T, and the per-tet memo that uses it.
#include "elasticity_test_helpers.hpp"
#include "eipc/elasticity/polar_rotation_near.hpp"
#include "eipc/elasticity/rotation_memo.hpp"
#include "eipc/elasticity/rotation_variant_svd.hpp"

#include <Eigen/Geometry>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

using namespace eipc;

namespace {

Mat3 svd_rotation(const Mat3& F) {
  const RotationVariantSvd s = rotation_variant_svd(F);
  return s.U * s.V.transpose();
}

/// R turned by `angle` about a random axis.
Mat3 turned(std::mt19937& rng, const Mat3& R, double angle) {
  std::normal_distribution<double> n(0.0, 1.0);
  const Vec3 axis = Vec3(n(rng), n(rng), n(rng)).normalized();
  return R * Eigen::AngleAxisd(angle, axis).toRotationMatrix();
}

double orthogonality_error(const Mat3& R) { return (R.transpose() * R - Mat3::Identity()).cwiseAbs().maxCoeff(); }

}  // namespace

TEST_CASE("polar_rotation_near finds the SVD's rotation from a nearby guess", "[polar]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> stretch(0.4, 2.5);
  for (const double angle : {0.0, 1e-9, 1e-5, 1e-3, 3e-2, 0.1, 0.3}) {
    int converged = 0;
    for (int i = 0; i < 2000; ++i) {
      const Mat3 F = test::with_singular_values(rng, Vec3(stretch(rng), stretch(rng), stretch(rng)));
      const Mat3 exact = svd_rotation(F);
      Mat3 R = Mat3::Constant(std::numeric_limits<double>::quiet_NaN());
      if (!polar_rotation_near(F, turned(rng, exact, angle), R)) continue;
      ++converged;
      INFO("angle " << angle << ", F\n" << F);
      CHECK((R - exact).cwiseAbs().maxCoeff() < 2e-15 * 8);
      CHECK(orthogonality_error(R) < 1e-15);
      CHECK(R.determinant() > 0.0);
    }
    INFO("angle " << angle);
    // From a tet's last rotation (turns of mrad) it must apply every time.
    if (angle <= 3e-2) CHECK(converged == 2000);
    if (angle <= 0.1) CHECK(converged >= 1990);
  }
}

TEST_CASE("polar_rotation_near declines rather than give another rotation", "[polar]") {
  std::mt19937 rng(8);
  std::uniform_real_distribution<double> stretch(0.05, 4.0);
  int declined = 0;
  for (int i = 0; i < 20000; ++i) {
    const Mat3 F = test::with_singular_values(rng, Vec3(stretch(rng), stretch(rng), stretch(rng)));
    Mat3 R;
    // Any guess at all, rotated up to half a turn away from the answer: S may
    // come out symmetric but indefinite (a rotation by pi about an eigenvector).
    if (!polar_rotation_near(F, test::random_rotation(rng), R)) {
      ++declined;
      continue;
    }
    INFO("F\n" << F);
    CHECK((R - svd_rotation(F)).cwiseAbs().maxCoeff() < 1e-13);
  }
  CHECK(declined > 0);  // far guesses do get declined
  Mat3 R = Mat3::Identity();
  const Mat3 unchanged = R;
  const Mat3 inverted = test::with_singular_values(rng, Vec3(1.2, 0.9, -0.3));
  CHECK_FALSE(polar_rotation_near(inverted, svd_rotation(inverted), R));
  Mat3 flat = test::random_matrix(rng, 1.0);
  flat.col(2) = 0.5 * flat.col(0) - 2.0 * flat.col(1);
  CHECK_FALSE(polar_rotation_near(flat, Mat3::Identity(), R));
  CHECK_FALSE(polar_rotation_near(Mat3::Constant(std::numeric_limits<double>::quiet_NaN()), Mat3::Identity(), R));
  CHECK(R == unchanged);
}

TEST_CASE("RotationMemo follows a moving F and falls back to the SVD", "[polar]") {
  std::mt19937 rng(9);
  RotationMemo memo;
  const Mat3 Q = test::random_rotation(rng);
  const Vec3 axis = Vec3(0.3, -0.8, 0.5).normalized();
  double worst = 0.0;
  // A tet turning 1 mrad and stretching a little per call, for many calls with
  // no SVD between: the rotation must not drift from orthogonal.
  for (int k = 0; k < 20000; ++k) {
    const Mat3 S = test::with_singular_values(rng, Vec3(1.2, 0.9, 0.8)).eval();
    const Mat3 F = Eigen::AngleAxisd(1e-3 * k, axis).toRotationMatrix() * Q *
                   (Mat3::Identity() + 1e-3 * (S + S.transpose()));
    const Mat3& R = memo.rotation_of(F);
    worst = std::max(worst, (R - svd_rotation(F)).cwiseAbs().maxCoeff());
    REQUIRE(orthogonality_error(R) < 1e-15);
  }
  CHECK(worst < 1e-14);

  // The same F again: the same rotation, bit for bit; its SVD on request.
  const Mat3 F = Q * (Mat3::Identity() + test::random_matrix(rng, 0.05));
  const Mat3 R = memo.rotation_of(F);
  CHECK(memo.rotation_of(F) == R);
  const RotationVariantSvd& s = memo.svd_of(F);
  CHECK((s.U * s.sigma.asDiagonal() * s.V.transpose() - F).cwiseAbs().maxCoeff() < 1e-14);
  CHECK((memo.rotation_of(F) - R).cwiseAbs().maxCoeff() < 1e-14);

  // Inverted: no polar rotation; R is U V^T of the rotation-variant SVD (det +1).
  const Mat3 inverted = test::with_singular_values(rng, Vec3(1.1, 0.8, -0.2));
  const Mat3& Ri = memo.rotation_of(inverted);
  CHECK((Ri - svd_rotation(inverted)).cwiseAbs().maxCoeff() < 1e-14);
  CHECK(Ri.determinant() > 0.0);
}
