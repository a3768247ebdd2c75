// The translation-reduced PSD projection of contact Hessians against the plain
// 12x12 eigenvalue clamp.
#include <catch2/catch.hpp>

#include "../collisions/contact_test_helpers.hpp"
#include "eipc/barrier/barrier_potential.hpp"
#include "eipc/optim/psd.hpp"

#include <Eigen/Eigenvalues>

using namespace eipc;

namespace {

double min_eigenvalue(const Mat<12>& m) { return Eigen::SelfAdjointEigenSolver<Mat<12>>(m).eigenvalues().minCoeff(); }

/// A random symmetric matrix whose null space holds the three translations:
/// D^T S D with D the 9x12 difference map (x1 - x0, x2 - x0, x3 - x0) and S symmetric (indefinite).
Mat<12> random_translation_invariant(test::Random& rng) {
  Eigen::Matrix<double, 9, 12> d = Eigen::Matrix<double, 9, 12>::Zero();
  for (int i = 0; i < 3; ++i) {
    d.block<3, 3>(3 * i, 0) = -Mat3::Identity();
    d.block<3, 3>(3 * i, 3 * (i + 1)) = Mat3::Identity();
  }
  Mat<9> s;
  for (int i = 0; i < 9; ++i)
    for (int j = 0; j < 9; ++j) s(i, j) = rng.uniform(-1.0, 1.0);
  s = Mat<9>(0.5 * (s + s.transpose()));  // evaluated first: no aliasing
  return d.transpose() * s * d;
}

}  // namespace

TEST_CASE("translation-reduced projection equals the 12x12 eigenvalue clamp", "[contact][psd]") {
  test::Random rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    const Mat<12> h = random_translation_invariant(rng);
    const Mat<12> reference = project_psd<12>(h);
    const Mat<12> reduced = project_translation_invariant_psd(h);
    INFO("trial " << trial);
    REQUIRE(min_eigenvalue(h) < -1e-3);  // the clamp has work to do
    CHECK((reduced - reference).norm() <= 1e-12 * h.norm());
    CHECK(reduced == reduced.transpose());
    CHECK(min_eigenvalue(reduced) >= -1e-12 * h.norm());
  }
}

TEST_CASE("translation-reduced projection of real barrier Hessians", "[contact][psd][barrier]") {
  // Point-triangle and edge-edge contacts of every distance type, mollified edge pairs included.
  const auto soup = test::random_triangle_soup(3, 3, 3, 0.2, 0.01, 31);
  const double dhat = 0.1;
  const ContactSet set = build_contact_set(soup.mesh, soup.x, soup.candidates, dhat);
  REQUIRE(set.size() > 100);
  int clamped = 0;
  for (const Contact& c : set.contacts) {
    const Mat<12> h = contact_barrier_hessian(c, soup.x, dhat, std::nullopt, false);
    const Mat<12> reference = project_psd<12>(h);
    const Mat<12> reduced = project_translation_invariant_psd(h);
    CHECK((reduced - reference).norm() <= 1e-10 * h.norm());
    CHECK(min_eigenvalue(reduced) >= -1e-10 * h.norm());
    if (!(reduced == h)) ++clamped;
  }
  INFO("clamped " << clamped << " of " << set.size());
  CHECK(clamped > 10);
}

TEST_CASE("translation-reduced projection leaves a PSD matrix untouched", "[contact][psd]") {
  test::Random rng(6);
  const Mat<12> a = random_translation_invariant(rng), b = random_translation_invariant(rng);
  const Mat<12> g = a * a + b * b;  // PSD, translations in its null space, positive on their complement
  CHECK(project_translation_invariant_psd(g) == g);
}
