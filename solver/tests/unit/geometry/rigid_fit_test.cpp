// fit_rigid: recovers a rigid motion exactly, measures the largest departure
// from the motion it returns, and never returns a reflection;
// half_angle_cosine bounds how much a straight move between two turned
// placements shortens a vector.
#include "eipc/geometry/rigid_fit.hpp"

#include <catch2/catch.hpp>
#include <Eigen/Geometry>
#include <numeric>
#include <random>

using namespace eipc;

namespace {

Positions random_points(int n, std::mt19937& rng) {
  std::uniform_real_distribution<double> unit(-0.05, 0.05);
  Positions x(n, 3);
  for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = unit(rng);
  return x;
}

std::vector<int> all_of(const Positions& x) {
  std::vector<int> v(std::size_t(x.rows()));
  std::iota(v.begin(), v.end(), 0);
  return v;
}

}  // namespace

TEST_CASE("fit_rigid recovers a rigid motion and measures the rest", "[geometry]") {
  std::mt19937 rng(GENERATE(1u, 2u, 3u));
  const Positions from = random_points(200, rng);
  const Mat3 R = Eigen::AngleAxisd(0.7, Vec3(1, -2, 0.5).normalized()).toRotationMatrix();
  const Vec3 shift(0.3, -0.1, 2.0);
  Positions to = (from * R.transpose()).rowwise() + shift.transpose();
  const RigidFit exact = fit_rigid(from, to, all_of(from));
  CHECK((exact.rotation - R).norm() < 1e-12);
  CHECK(exact.deviation < 1e-12);

  // One vertex pushed 1 mm off: the deviation is the largest distance from the
  // fitted motion's image, whatever that fit is.
  to(17, 0) += 1e-3;
  const RigidFit fit = fit_rigid(from, to, all_of(from));
  double worst = 0.0;
  for (int v = 0; v < from.rows(); ++v)
    worst = std::max(worst, (to.row(v).transpose() - fit.to_mean - fit.rotation * (from.row(v).transpose() - fit.from_mean)).norm());
  CHECK(fit.deviation == Approx(worst).epsilon(1e-12));
  CHECK(fit.deviation > 0.9e-3);
  CHECK(fit.deviation < 1e-3);
  // Asked only whether all are within 0.5 mm: some vertex past it is reported.
  const RigidFit given_up = fit_rigid(from, to, all_of(from), 0.5e-3);
  CHECK(given_up.deviation > 0.5e-3);
  CHECK(given_up.deviation <= fit.deviation);

  // A mirror image is fitted by a proper rotation.
  Positions mirrored = from;
  mirrored.col(0) *= -1.0;
  const RigidFit proper = fit_rigid(from, mirrored, all_of(from));
  CHECK(proper.rotation.determinant() == Approx(1.0));
  CHECK((proper.rotation.transpose() * proper.rotation - Mat3::Identity()).norm() < 1e-12);
}

TEST_CASE("half_angle_cosine bounds the shortening along a straight move between turns", "[geometry]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (double angle : {0.0, 0.03, 0.5, 2.0, 3.1}) {
    RigidFit a, b;
    a.rotation = Eigen::AngleAxisd(1.1, Vec3(0, 1, 1).normalized()).toRotationMatrix();
    b.rotation = a.rotation * Eigen::AngleAxisd(angle, Vec3(1, 0, 2).normalized()).toRotationMatrix();
    const double c = half_angle_cosine(a, b);
    CHECK(c == Approx(std::cos(angle / 2.0)).margin(1e-12));
    // The least singular value over the move reaches c (halfway) and never goes below.
    double least = 1.0;
    for (double t = 0.0; t <= 1.0; t += 0.125) {
      const Mat3 M = (1.0 - t) * a.rotation + t * b.rotation;
      least = std::min(least, Eigen::JacobiSVD<Mat3>(M).singularValues()(2));
      for (int k = 0; k < 20; ++k) {
        const Vec3 u = Vec3(unit(rng), unit(rng), unit(rng)).normalized();
        CHECK((M * u).norm() >= c - 1e-12);
      }
    }
    CHECK(least == Approx(c).margin(1e-12));
  }
}
