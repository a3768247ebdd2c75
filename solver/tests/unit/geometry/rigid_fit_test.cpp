// fit_rigid: recovers a rigid motion exactly, measures the largest departure
// from the motion it returns, and never returns a reflection;
// half_angle_cosine bounds how much a straight move between two turned
// placements shortens a vector.
#include "eipc/geometry/rigid_fit.hpp"

#include <catch2/catch.hpp>
#include <Eigen/Geometry>
#include <Eigen/SVD>
#include <algorithm>
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

TEST_CASE("fit_rigid sums its means and cross-covariance vertex by vertex, in order", "[geometry]") {
  // The turn is the one of the plain sums sum_v d_v e_v^T (d, e each vertex
  // less its mean), added in the order of `vertices`: bit for bit, whatever
  // form the loop takes (the broad phase's decisions, and so the runs'
  // timings, are pinned to these sums).
  std::mt19937 rng(GENERATE(4u, 5u));
  const Positions from = random_points(301, rng);
  Positions to = (from * Eigen::AngleAxisd(0.3, Vec3(0.2, 1, -0.4).normalized()).toRotationMatrix().transpose());
  to += 1e-3 * random_points(301, rng);
  std::vector<int> vertices = all_of(from);
  std::shuffle(vertices.begin(), vertices.end(), rng);
  vertices.resize(250);
  const RigidFit fit = fit_rigid(from, to, vertices);
  // The means: plain sums in the order of `vertices`.
  Vec3 from_sum = Vec3::Zero(), to_sum = Vec3::Zero();
  for (int v : vertices) {
    from_sum += from.row(v).transpose();
    to_sum += to.row(v).transpose();
  }
  CHECK(fit.from_mean == from_sum / double(vertices.size()));
  CHECK(fit.to_mean == to_sum / double(vertices.size()));
  double sum[3][3] = {};
  for (int v : vertices)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) sum[i][j] += (from(v, i) - fit.from_mean[i]) * (to(v, j) - fit.to_mean[j]);
  Mat3 cross;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) cross(i, j) = sum[i][j];
  const Eigen::JacobiSVD<Mat3> svd(cross, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 flip = Mat3::Identity();
  flip(2, 2) = (svd.matrixV() * svd.matrixU().transpose()).determinant() < 0.0 ? -1.0 : 1.0;
  // Assigned to a RigidFit's rotation as fit_rigid does: Eigen evaluates a
  // product assigned to an existing matrix through a temporary, and sums some
  // of its entries in another order than when it constructs one.
  RigidFit expected = fit;
  expected.rotation = svd.matrixV() * flip * svd.matrixU().transpose();
  CHECK(fit.rotation == expected.rotation);
}

TEST_CASE("FitMemo's fits are follow's afresh, across skins, turns and new positions", "[geometry]") {
  // Pairs of shared positions fitted again and again with other skins, with
  // and without turns (as a contact filtering and the sweeps after it do): the
  // memo returns follow's fit bit for bit, but for a deviation past the skin,
  // which may be another one past it. Positions shared anew (other values
  // under a new pointer) are fitted afresh, also once their pair has been
  // evicted (more pairs than the memo holds).
  std::mt19937 rng(GENERATE(8u, 9u));
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const Positions rest = random_points(400, rng);
  std::vector<SharedPositions> at;
  auto moved = [&] {  // rest turned and shifted, plus noise of 0-2 mm
    const Mat3 R = Eigen::AngleAxisd(0.05 * unit(rng), Vec3(unit(rng), 1, unit(rng)).normalized()).toRotationMatrix();
    Positions x = (rest * R.transpose()).rowwise() + Eigen::RowVector3d(unit(rng), unit(rng), unit(rng)) * 1e-2;
    x += 2e-3 * unit(rng) * random_points(400, rng) / 0.05;
    return std::make_shared<const Positions>(std::move(x));
  };
  for (int k = 0; k < 5; ++k) at.push_back(moved());
  std::vector<int> vertices = all_of(rest);
  vertices.resize(300);
  FitMemo memo;
  int past = 0, within = 0;
  for (int q = 0; q < 400; ++q) {
    if (q % 37 == 36) at[std::size_t(q) % at.size()] = moved();  // new positions in that slot
    const SharedPositions& from = at[std::size_t(unit(rng) * 5) % 5];
    const SharedPositions& to = at[std::size_t(unit(rng) * 5) % 5];
    const double skin = 1e-4 * std::pow(10.0, 2.0 * unit(rng));  // 0.1-10 mm
    const bool turn = unit(rng) < 0.7;
    const RigidFit fresh = follow(*from, *to, vertices, skin, turn);
    const RigidFit kept = memo.follow(from, to, vertices, skin, turn);
    CHECK(kept.rotation == fresh.rotation);
    CHECK(kept.from_mean == fresh.from_mean);
    CHECK(kept.to_mean == fresh.to_mean);
    if (fresh.deviation <= skin) {
      CHECK(kept.deviation == fresh.deviation);
      ++within;
    } else {
      CHECK(kept.deviation > skin);
      ++past;
    }
  }
  CHECK(within > 50);
  CHECK(past > 50);
}
