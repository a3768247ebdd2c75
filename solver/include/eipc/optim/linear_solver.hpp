// Sparse symmetric positive-definite solves for Newton steps. Small systems use
// Eigen's simplicial LDLT (measured 4x faster than CHOLMOD's supernodal
// factorisation with reference BLAS on the 1.6k-DOF teddy scene); large ones
// CHOLMOD. The symbolic analysis is reused while the sparsity pattern stays the same.
#pragma once

#include "eipc/common.hpp"

#include <Eigen/Sparse>
#include <memory>

namespace eipc {

/// Systems with at least this many unknowns go to CHOLMOD (when available).
constexpr int kCholmodMinDofs = 20000;

class LinearSolver {
public:
  LinearSolver();
  ~LinearSolver();
  LinearSolver(const LinearSolver&) = delete;
  LinearSolver& operator=(const LinearSolver&) = delete;

  /// Solves A x = b for symmetric positive-definite A (lower and upper stored).
  /// Returns false if the factorisation fails (A not positive definite).
  bool solve(const Eigen::SparseMatrix<double>& A, const VecX& b, VecX& x);
  /// The factorisation used by the last solve.
  const char* name() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace eipc
