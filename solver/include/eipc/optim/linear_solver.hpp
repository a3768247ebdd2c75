// Sparse symmetric positive-definite solves for Newton steps: CHOLMOD when
// available, Eigen's simplicial LDLT otherwise. The symbolic analysis is reused
// while the sparsity pattern stays the same.
#pragma once

#include "eipc/common.hpp"

#include <Eigen/Sparse>
#include <memory>

namespace eipc {

class LinearSolver {
public:
  LinearSolver();
  ~LinearSolver();
  LinearSolver(const LinearSolver&) = delete;
  LinearSolver& operator=(const LinearSolver&) = delete;

  /// Solves A x = b for symmetric positive-definite A (lower and upper stored).
  /// Returns false if the factorisation fails (A not positive definite).
  bool solve(const Eigen::SparseMatrix<double>& A, const VecX& b, VecX& x);
  const char* name() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace eipc
