#include "eipc/optim/psd.hpp"

#include <catch2/catch.hpp>
#include <random>

using namespace eipc;

namespace {
template <int N>
void check_projection(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 20; ++trial) {
    Mat<N> A;
    for (int i = 0; i < N * N; ++i) A(i) = u(rng);
    const Mat<N> H = A + A.transpose();  // symmetric indefinite
    const Mat<N> P = project_psd<N>(H);
    Eigen::SelfAdjointEigenSolver<Mat<N>> eh(H), ep(P);
    // Eigenvalues of the projection are exactly max(l, 0) of the input (both sorted ascending).
    const Vec<N> expected = eh.eigenvalues().cwiseMax(0.0);
    CHECK((ep.eigenvalues() - expected).cwiseAbs().maxCoeff() < 1e-12);
    CHECK((P - P.transpose()).cwiseAbs().maxCoeff() < 1e-13);
    // Nearest PSD matrix in Frobenius norm: distance = norm of the negative eigenvalues.
    const double dist = (H - P).norm();
    CHECK(dist == Approx(eh.eigenvalues().cwiseMin(0.0).norm()).margin(1e-12));
    // Idempotent, and a PSD input is returned unchanged.
    const Mat<N> PP = project_psd<N>(P);
    CHECK((PP - P).cwiseAbs().maxCoeff() < 1e-12);
    const Mat<N> S = A * A.transpose();
    CHECK(project_psd<N>(S) == S);
  }
}
}  // namespace

TEST_CASE("project_psd clamps negative eigenvalues for N = 3, 6, 9, 12", "[util][psd]") {
  std::mt19937 rng(7);
  check_projection<3>(rng);
  check_projection<6>(rng);
  check_projection<9>(rng);
  check_projection<12>(rng);
}

TEST_CASE("project_psd on a known diagonal matrix", "[util][psd]") {
  Mat<3> H = Vec3(1.0, -2.0, 3.0).asDiagonal();
  const Mat<3> P = project_psd<3>(H);
  const Mat<3> expected = Vec3(1.0, 0.0, 3.0).asDiagonal();
  CHECK((P - expected).cwiseAbs().maxCoeff() < 1e-14);
  const MatX Hd = H;
  CHECK((project_psd(Hd) - MatX(expected)).cwiseAbs().maxCoeff() < 1e-14);
}
