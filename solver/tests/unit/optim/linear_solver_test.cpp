// LinearSolver on a system large enough for CHOLMOD: an indefinite matrix is
// reported by the return value only; nothing is printed on stdout (where
// `eipc run --json` writes its summary).
#include "eipc/optim/linear_solver.hpp"

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

using namespace eipc;

namespace {

/// A tridiagonal n x n matrix with `diagonal` on its diagonal and -1 beside it (both triangles stored).
Eigen::SparseMatrix<double> tridiagonal(int n, double diagonal) {
  std::vector<Eigen::Triplet<double>> t;
  for (int i = 0; i < n; ++i) {
    t.emplace_back(i, i, diagonal);
    if (i + 1 < n) {
      t.emplace_back(i + 1, i, -1.0);
      t.emplace_back(i, i + 1, -1.0);
    }
  }
  Eigen::SparseMatrix<double> A(n, n);
  A.setFromTriplets(t.begin(), t.end());
  return A;
}

/// What `f` writes to stdout (file descriptor 1).
template <typename F> std::string stdout_of(F f) {
  std::fflush(stdout);
  char path[] = "/tmp/eipc-stdout-XXXXXX";
  const int file = mkstemp(path);
  const int saved = dup(1);
  dup2(file, 1);
  f();
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  close(file);
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::remove(path);
  return text;
}

}  // namespace

TEST_CASE("a large indefinite system fails without printing anything", "[optim]") {
  const int n = kCholmodMinDofs + 3;
  LinearSolver solver;
  VecX x;
  const VecX b = VecX::Ones(n);
  bool solved = true;
  const std::string printed = stdout_of([&] { solved = solver.solve(tridiagonal(n, -0.5), b, x); });
  CHECK_FALSE(solved);
  CHECK(printed.empty());
  // The same solver still solves a positive definite system afterwards.
  REQUIRE(solver.solve(tridiagonal(n, 4.0), b, x));
  CHECK((tridiagonal(n, 4.0) * x - b).norm() < 1e-10);
}

TEST_CASE("a small system with a dense block goes to the dense kernels; many right-hand sides at once",
          "[optim]") {
  // 750 DOFs, all coupled (a coarsened body's block): 562,500 stored entries.
  const int n = 750;
  static_assert(static_cast<long>(n) * n >= kCholmodMinNonzeros);
  const MatX R = MatX::Random(n, n);
  const Eigen::SparseMatrix<double> A = (R * R.transpose() + n * MatX::Identity(n, n)).sparseView();
  const VecX b = VecX::Ones(n);
  LinearSolver solver;
  VecX x;
  REQUIRE(solver.solve(A, b, x));
  CHECK((A * x - b).norm() < 1e-9 * b.norm());
  if (LinearSolver::has_cholmod()) CHECK(std::string(solver.name()) == "cholmod-supernodal");
  // Many right-hand sides at once, with the same factorisation.
  const MatX B = MatX::Random(n, 5);
  MatX X;
  REQUIRE(solver.solve_again(B, X));
  CHECK((MatX(A) * X - B).norm() < 1e-9 * B.norm());
  REQUIRE(solver.solve(tridiagonal(n, 4.0), b, x));  // sparse and small: the block LDL^T
  CHECK(std::string(solver.name()) == "block-ldlt");
  REQUIRE(solver.solve_again(B, X));
  CHECK((tridiagonal(n, 4.0) * X - B).norm() < 1e-9 * B.norm());
}
