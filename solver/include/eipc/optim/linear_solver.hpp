// Sparse symmetric positive-definite solves for Newton steps. Systems below
// kCholmodMinDofs use BlockLdlt (3x3 node blocks: 2.6x faster than Eigen's
// simplicial LDLT on the 0.5k/1.6k-DOF teddy grasp, 3x faster on a 14.6k-DOF
// ball); larger ones CHOLMOD's supernodal LL^T, whose dense kernels win there
// (14.6k DOFs: 0.97 s with reference BLAS, 0.15 s with OpenBLAS, BlockLdlt 1.16 s;
// bench_linear_solver), as do matrices of kCholmodMinNonzeros entries or more.
// Sizes that are not whole nodes fall back to Eigen's
// simplicial LDLT. The symbolic analysis is reused while the pattern stays the same.
#pragma once

#include "eipc/common.hpp"

#include <Eigen/Sparse>
#include <memory>

namespace eipc {

/// Systems with at least this many unknowns go to CHOLMOD (when available).
/// Between the measured sizes (BlockLdlt 2.4x faster than CHOLMOD+OpenBLAS at
/// 1.6k DOFs, 7.6x slower at 14.6k; vs reference BLAS 3.9x faster / 1.2x slower).
constexpr int kCholmodMinDofs = 8000;
/// ... or at least this many stored entries: a body with a coarsened stiffness
/// puts a dense block of all its nodes in the matrix, where CHOLMOD's dense
/// kernels win at any size (the FinRay fingers coarsened: two 1134-dof blocks).
constexpr long kCholmodMinNonzeros = 500000;

class LinearSolver {
public:
  LinearSolver();
  ~LinearSolver();
  LinearSolver(const LinearSolver&) = delete;
  LinearSolver& operator=(const LinearSolver&) = delete;

  /// Solves A x = b for symmetric positive-definite A (lower and upper stored).
  /// Returns false if the factorisation fails (A not positive definite).
  bool solve(const Eigen::SparseMatrix<double>& A, const VecX& b, VecX& x);
  /// Solves with the matrix of the last successful solve (its factorisation is
  /// kept): only the triangular solves. Returns false if there is none.
  bool solve_again(const VecX& b, VecX& x);
  /// The same for every column of B at once (many right-hand sides).
  bool solve_again(const MatX& B, MatX& X);
  /// The factorisation used by the last solve.
  const char* name() const;
  /// Whether this build has CHOLMOD (else large systems use the block LDL^T too).
  static bool has_cholmod();

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace eipc
