// times_3x3 and the lower-triangle pull-back keep Eigen's sums bit for bit:
// the trajectories of issue 41's kernels must not move by a bit.
#include <catch2/catch.hpp>

#include "eipc/elasticity/tet_kinematics.hpp"
#include "eipc/util/small_product.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include <array>
#include <cmath>
#include <cstring>
#include <random>

using namespace eipc;

namespace {

template <class A, class B>
bool same_bits(const A& a, const B& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * std::size_t(a.size())) == 0;
}

/// pull_back_identity_plus_rank4 as it was: the full 12x12 product, mirrored.
Mat<12> rank4_reference(double a, const std::array<Mat3, 4>& M, const std::array<double, 4>& w, const Mat3& Dm_inv) {
  Eigen::Matrix<double, 4, 3> B;
  B.row(0) = -Dm_inv.colwise().sum();
  B.bottomRows<3>() = Dm_inv;
  const Eigen::Matrix4d gram = B * B.transpose();
  Eigen::Matrix<double, 12, 4> G, Gw;
  for (int k = 0; k < 4; ++k) {
    const Eigen::Matrix<double, 3, 4> Gk = M[k] * B.transpose();
    G.col(k) = Eigen::Map<const Vec<12>>(Gk.data());
    Gw.col(k) = w[k] * G.col(k);
  }
  Mat<12> H = Gw.lazyProduct(G.transpose());
  for (int p = 0; p < 4; ++p)
    for (int q = 0; q < 4; ++q) H.block<3, 3>(3 * p, 3 * q).diagonal().array() += a * gram(p, q);
  H.triangularView<Eigen::StrictlyUpper>() = H.transpose();
  return H;
}

}  // namespace

TEST_CASE("times_3x3 sums as Eigen's product does", "[util][small_product]") {
  std::mt19937_64 rng(41);
  std::normal_distribution<double> normal;
  auto fill = [&](auto& m) {
    for (int i = 0; i < m.size(); ++i) m.data()[i] = normal(rng);
  };
  for (int trial = 0; trial < 20000; ++trial) {
    Mat3 a, b;
    Eigen::Matrix<double, 4, 3> c;
    fill(a);
    fill(b);
    fill(c);
    REQUIRE(same_bits(Mat3(a * b), times_3x3<3>(a, b)));
    REQUIRE(same_bits(Mat3(a * b.transpose()), times_3x3<3>(a, b.transpose())));
    REQUIRE(same_bits(Eigen::Matrix<double, 3, 4>(a * c.transpose()), times_3x3<4>(a, c.transpose())));
  }
}

TEST_CASE("pull_back_identity_plus_rank4 equals the full product bit for bit", "[util][small_product]") {
  std::mt19937_64 rng(42);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 20000; ++trial) {
    std::array<Mat3, 4> M;
    std::array<double, 4> w;
    Mat3 Dm_inv;
    for (Mat3& m : M)
      for (int i = 0; i < 9; ++i) m.data()[i] = normal(rng);
    for (double& x : w) x = normal(rng);
    for (int i = 0; i < 9; ++i) Dm_inv.data()[i] = normal(rng);
    const double a = std::abs(normal(rng));
    REQUIRE(same_bits(rank4_reference(a, M, w, Dm_inv), pull_back_identity_plus_rank4(a, M, w, Dm_inv)));
  }
}

TEST_CASE("spd_inverse_from_cholesky equals Eigen's LLT solve bit for bit", "[util][small_product]") {
  std::mt19937_64 rng(4141);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> scale(-12.0, 12.0);
  int different_from_plain_inverse = 0;
  for (int trial = 0; trial < 200000; ++trial) {
    Mat3 a;
    for (int i = 0; i < 9; ++i) a.data()[i] = normal(rng);
    // SPD, with a spread of magnitudes (Newton blocks span many decades).
    Mat3 d = a * a.transpose() + 1e-3 * Mat3::Identity();
    d *= std::pow(10.0, scale(rng));
    const Eigen::LLT<Mat3> llt(d);
    REQUIRE(llt.info() == Eigen::Success);
    const Mat3 expected = llt.solve(Mat3::Identity());
    REQUIRE(same_bits(expected, spd_inverse_from_cholesky(llt.matrixLLT())));
    different_from_plain_inverse += same_bits(expected, Mat3(d.inverse())) ? 0 : 1;
  }
  // The order matters: another formula gives other bits (so this test can fail).
  CHECK(different_from_plain_inverse > 1000);
}

TEST_CASE("SubtractTimesVector and SubtractTimesBlock sum as Eigen's dst -= l * w does", "[util][small_product]") {
  std::mt19937_64 rng(4242);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 200000; ++trial) {
    Mat3 l, W, Y;
    Vec3 w, y;
    for (int i = 0; i < 9; ++i) {
      l.data()[i] = normal(rng);
      W.data()[i] = normal(rng);
      Y.data()[i] = normal(rng);
    }
    for (int i = 0; i < 3; ++i) {
      w[i] = normal(rng);
      y[i] = normal(rng);
    }
    Vec3 expected = y, got = y;
    expected.noalias() -= l * w;
    const SubtractTimesVector subtract(w);
    subtract(got.data(), l.data());
    REQUIRE(same_bits(expected, got));
    Mat3 expected_block = Y, got_block = Y;
    expected_block.noalias() -= l * W;
    const SubtractTimesBlock subtract_block(W);
    subtract_block(got_block, l);
    REQUIRE(same_bits(expected_block, got_block));
  }
}
