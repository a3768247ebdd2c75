// Accuracy of the one-sided Jacobi rotation-variant SVD on hard 3x3 families
// (repeated, tiny, zero and negative singular values, extreme scales), checked
// against the definition and against Eigen's JacobiSVD.
#include "elasticity_test_helpers.hpp"
#include "eipc/testing/reference_svd.hpp"
#include "eipc/elasticity/rotation_variant_svd.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <string>

using namespace eipc;

namespace {

struct Family {
  std::string name;
  std::vector<Mat3> matrices;
};

Vec3 uniform_vec(std::mt19937& rng, double lo, double hi) {
  std::uniform_real_distribution<double> u(lo, hi);
  return {u(rng), u(rng), u(rng)};
}

std::vector<Family> hard_families(int n) {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> u(0.1, 3.0);
  std::vector<Family> out;
  auto add = [&](const std::string& name, auto make) {
    Family f{name, {}};
    for (int i = 0; i < n; ++i) f.matrices.push_back(make());
    out.push_back(std::move(f));
  };
  add("random entries", [&] { return test::random_matrix(rng, 1.0); });
  add("identity + 1e-3", [&] { return Mat3(Mat3::Identity() + test::random_matrix(rng, 1e-3)); });
  add("identity + 1e-12", [&] { return Mat3(Mat3::Identity() + test::random_matrix(rng, 1e-12)); });
  add("rotation", [&] { return test::random_rotation(rng); });
  add("rotation + 1e-9", [&] { return Mat3(test::random_rotation(rng) + test::random_matrix(rng, 1e-9)); });
  add("s,s,s", [&] { return test::with_singular_values(rng, Vec3::Constant(u(rng))); });
  add("s,s,t", [&] { const double s = u(rng); return test::with_singular_values(rng, Vec3(s, s, u(rng))); });
  add("s,t,t", [&] { const double t = u(rng); return test::with_singular_values(rng, Vec3(u(rng), t, t)); });
  add("s,s,s(1+1e-10)", [&] {
    const double s = u(rng);
    return test::with_singular_values(rng, Vec3(s, s * (1 + 1e-10), s * (1 - 1e-10)));
  });
  add("1,a,1e-8..1e-16", [&] {
    const double tiny = std::pow(10.0, -8.0 - 8.0 * std::uniform_real_distribution<double>(0, 1)(rng));
    return test::with_singular_values(rng, Vec3(1.0, u(rng) / 3.0, tiny));
  });
  add("1,1e-8,1e-12", [&] { return test::with_singular_values(rng, Vec3(1.0, 1e-8, 1e-12)); });
  add("1,1e-9,1e-9", [&] { return test::with_singular_values(rng, Vec3(1.0, 1e-9, 1e-9)); });
  add("rank 2 (flat)", [&] {
    Mat3 F = test::random_matrix(rng, 1.0);
    F.col(2) = 0.3 * F.col(0) - 1.7 * F.col(1);
    return F;
  });
  add("rank 2 (zero row)", [&] {
    Mat3 F = test::random_matrix(rng, 1.0);
    F.row(1).setZero();
    return F;
  });
  add("rank 1", [&] { return Mat3(uniform_vec(rng, -1, 1) * uniform_vec(rng, -1, 1).transpose()); });
  add("inverted", [&] { return test::with_singular_values(rng, Vec3(u(rng), u(rng), -u(rng))); });
  add("inverted s,s,-s", [&] { const double s = u(rng); return test::with_singular_values(rng, Vec3(s, s, -s)); });
  add("inverted 1,1,-1e-12", [&] { return test::with_singular_values(rng, Vec3(1, 1, -1e-12)); });
  add("reflection", [&] { return test::with_singular_values(rng, Vec3(1, 1, -1)); });
  add("random * 1e-250", [&] { return Mat3(test::random_matrix(rng, 1.0) * 1e-250); });
  add("random * 1e250", [&] { return Mat3(test::random_matrix(rng, 1.0) * 1e250); });
  return out;
}

/// Frobenius norm without under/overflow at 1e+-250. (Eigen 3.4.0's stableNorm
/// on a 3x3 matrix trips its own block-index assertion in debug builds, so it
/// runs on the 9 entries as a vector.)
double frobenius(const Mat3& F) { return Eigen::Map<const Vec<9>>(F.data()).stableNorm(); }

struct Errors {
  double reconstruction = 0, orthogonality = 0, sigma_vs_reference = 0;
};

/// Errors relative to ||F||; orthogonality covers U and V.
Errors errors_of(const Mat3& F, const RotationVariantSvd& s, const RotationVariantSvd& ref) {
  const double scale = frobenius(F);  // F.norm() underflows at 1e-250
  Errors e;
  e.reconstruction = ((s.U * s.sigma.asDiagonal() * s.V.transpose() - F) / scale).norm();
  e.orthogonality = std::max((s.U.transpose() * s.U - Mat3::Identity()).norm(),
                             (s.V.transpose() * s.V - Mat3::Identity()).norm());
  e.sigma_vs_reference = ((s.sigma.cwiseAbs() - ref.sigma.cwiseAbs()) / scale).norm();
  return e;
}

}  // namespace

/// The SVD under test: started cold, from the V of a nearby matrix (as RotationMemo
/// does between Newton iterates), or from an unrelated rotation.
enum class Start { cold, nearby, random };

RotationVariantSvd svd_started(const Mat3& F, Start start, std::mt19937& rng) {
  switch (start) {
    case Start::cold: return rotation_variant_svd(F);
    case Start::nearby: return rotation_variant_svd(F, rotation_variant_svd(F + test::random_matrix(rng, 1e-6 * frobenius(F))).V);
    case Start::random: return rotation_variant_svd(F, test::random_rotation(rng));
  }
  return {};
}

TEST_CASE("rotation-variant SVD: accurate on hard matrix families", "[elasticity][svd]") {
  const Start start = GENERATE(Start::cold, Start::nearby, Start::random);
  std::mt19937 rng(5);
  for (const Family& family : hard_families(400)) {
    Errors worst, worst_ref;
    for (const Mat3& F : family.matrices) {
      INFO(family.name << " (start " << int(start) << ")\nF =\n" << F);
      const RotationVariantSvd s = svd_started(F, start, rng);
      const RotationVariantSvd ref = rotation_variant_svd_reference(F);
      const Errors e = errors_of(F, s, ref), r = errors_of(F, ref, ref);
      worst.reconstruction = std::max(worst.reconstruction, e.reconstruction);
      worst.orthogonality = std::max(worst.orthogonality, e.orthogonality);
      worst.sigma_vs_reference = std::max(worst.sigma_vs_reference, e.sigma_vs_reference);
      worst_ref.reconstruction = std::max(worst_ref.reconstruction, r.reconstruction);
      worst_ref.orthogonality = std::max(worst_ref.orthogonality, r.orthogonality);

      REQUIRE(s.U.determinant() == Approx(1.0).margin(1e-14));
      REQUIRE(s.V.determinant() == Approx(1.0).margin(1e-14));
      REQUIRE(s.sigma[0] >= s.sigma[1]);
      REQUIRE(s.sigma[1] >= std::abs(s.sigma[2]));
      // The sign of det F is on sigma_2 whenever det F is resolvable.
      const double det = Mat3(F / frobenius(F)).determinant();
      if (std::abs(det) > 1e-12) REQUIRE((s.sigma[2] < 0.0) == (det < 0.0));
      // The polar rotation is unique when sigma_1 + sigma_2 > 0; dR ~ dF / (sigma_1 + sigma_2).
      const double pair_sum = (s.sigma[1] + s.sigma[2]) / frobenius(F);
      if (pair_sum > 1e-6) {
        const Mat3 R = s.U * s.V.transpose(), R_ref = ref.U * ref.V.transpose();
        REQUIRE((R - R_ref).norm() < 1e-14 / pair_sum);
      }
    }
    INFO(family.name << ": new recon " << worst.reconstruction << " orth " << worst.orthogonality
                     << " sigma-ref " << worst.sigma_vs_reference << " | Eigen recon " << worst_ref.reconstruction
                     << " orth " << worst_ref.orthogonality);
    CHECK(worst.reconstruction < 3e-15);
    CHECK(worst.orthogonality < 3e-15);
    CHECK(worst.sigma_vs_reference < 5e-15);
    // At least as accurate as Eigen's JacobiSVD (up to a couple of ulps).
    CHECK(worst.reconstruction <= std::max(2.0 * worst_ref.reconstruction, 1e-15));
    CHECK(worst.orthogonality <= std::max(2.0 * worst_ref.orthogonality, 1e-15));
  }
}

TEST_CASE("rotation-variant SVD: exact cases", "[elasticity][svd]") {
  const RotationVariantSvd zero = rotation_variant_svd(Mat3::Zero());
  CHECK(zero.sigma == Vec3::Zero());
  CHECK(zero.U == Mat3::Identity());
  CHECK(zero.V == Mat3::Identity());

  const RotationVariantSvd id = rotation_variant_svd(Mat3::Identity());
  CHECK(id.sigma == Vec3::Ones());
  CHECK(id.U * id.V.transpose() == Mat3::Identity());

  // diag(1, 3, -2): sigma = (3, 2, -1), the reflection on the smallest.
  const RotationVariantSvd d = rotation_variant_svd(Vec3(1, 3, -2).asDiagonal());
  CHECK((d.sigma - Vec3(3, 2, -1)).norm() < 1e-15);

  // A half turn is its own polar rotation (sigma = 1, 1, 1: no reflection).
  const Mat3 half_turn = Vec3(-1, -1, 1).asDiagonal();
  const RotationVariantSvd h = rotation_variant_svd(half_turn);
  CHECK((h.sigma - Vec3::Ones()).norm() < 1e-15);
  CHECK((h.U * h.V.transpose() - half_turn).norm() < 1e-15);

  Mat3 F = Mat3::Identity();
  F(0, 0) = std::numeric_limits<double>::quiet_NaN();
  CHECK(std::isnan(rotation_variant_svd(F).sigma[0]));
  F(0, 0) = std::numeric_limits<double>::infinity();
  CHECK(std::isnan(rotation_variant_svd(F).U(1, 1)));
}
