#include "eipc/optim/linear_solver.hpp"

#include "eipc/optim/block_ldlt.hpp"

#ifdef EIPC_HAVE_CHOLMOD
#include <Eigen/CholmodSupport>
#endif
#include <Eigen/SparseCholesky>

#include <functional>
#include <type_traits>

namespace eipc {

namespace {

/// Same nonzero structure (compressed matrices)?
bool same_pattern(const Eigen::SparseMatrix<double>& a, const Eigen::SparseMatrix<double>& b) {
  if (a.rows() != b.rows() || a.nonZeros() != b.nonZeros()) return false;
  return std::equal(a.outerIndexPtr(), a.outerIndexPtr() + a.outerSize() + 1, b.outerIndexPtr()) &&
         std::equal(a.innerIndexPtr(), a.innerIndexPtr() + a.nonZeros(), b.innerIndexPtr());
}

}  // namespace

/// A sparse Cholesky that keeps its symbolic analysis while the pattern stays the same.
template <class Factorization>
struct CachedFactorization {
  Factorization solver;
  Eigen::SparseMatrix<double> pattern;
  bool analysed = false;
  bool factorized = false;

  bool solve(const Eigen::SparseMatrix<double>& A, const VecX& b, VecX& x) {
    if (!analysed || !same_pattern(A, pattern)) {
      analysed = false;
      solver.analyzePattern(A);
      pattern = A;
      analysed = true;
    }
    solver.factorize(A);
    factorized = solver.info() == Eigen::Success;
    return factorized && solve_again(b, x);
  }

  bool solve_again(const VecX& b, VecX& x) {
    if (!factorized || b.size() != pattern.rows()) return false;
    x = solver.solve(b);
    return solver.info() == Eigen::Success && x.allFinite();
  }

  /// Every column of B at once (CHOLMOD's supernodes then solve with dense BLAS-3).
  bool solve_again(const MatX& B, MatX& X) {
    if (!factorized || B.rows() != pattern.rows()) return false;
    if constexpr (std::is_same_v<Factorization, BlockLdlt>) {
      X.resize(B.rows(), B.cols());
      for (Eigen::Index c = 0; c < B.cols(); ++c) X.col(c) = solver.solve(VecX(B.col(c)));
      return X.allFinite();
    } else {
      X = solver.solve(B);
      return solver.info() == Eigen::Success && X.allFinite();
    }
  }
};

#ifdef EIPC_HAVE_CHOLMOD
/// CHOLMOD's supernodal LL^T (dense BLAS kernels on supernodes).
struct CholmodSupernodal : Eigen::CholmodDecomposition<Eigen::SparseMatrix<double>, Eigen::Lower> {
  CholmodSupernodal() {
    setMode(Eigen::CholmodSupernodalLLt);
    // Silent: a matrix that is not positive definite is an answer the caller
    // handles (the projected Hessian next), and CHOLMOD's warnings went to
    // stdout, into `eipc run --json`'s summary.
    cholmod().print = 0;
  }
};
#endif

struct LinearSolver::Impl {
  CachedFactorization<BlockLdlt> block;
  CachedFactorization<Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower>> simplicial;
#ifdef EIPC_HAVE_CHOLMOD
  CachedFactorization<CholmodSupernodal> cholmod;
#endif
  const char* last = "none";
  std::function<bool(const VecX&, VecX&)> solve_again;  ///< with the factorisation of the last solve
  std::function<bool(const MatX&, MatX&)> solve_again_columns;
};

LinearSolver::LinearSolver() : impl_(std::make_unique<Impl>()) {}
LinearSolver::~LinearSolver() = default;

bool LinearSolver::solve(const Eigen::SparseMatrix<double>& A, const VecX& b, VecX& x) {
  Impl& m = *impl_;
  auto use = [&](const char* name, auto& factorization) {
    m.last = name;
    m.solve_again = [&factorization](const VecX& rhs, VecX& out) { return factorization.solve_again(rhs, out); };
    m.solve_again_columns = [&factorization](const MatX& rhs, MatX& out) { return factorization.solve_again(rhs, out); };
    return factorization.solve(A, b, x);
  };
#ifdef EIPC_HAVE_CHOLMOD
  if (A.rows() >= kCholmodMinDofs || A.nonZeros() >= kCholmodMinNonzeros) return use("cholmod-supernodal", m.cholmod);
#endif
  if (A.rows() % 3 == 0 && A.isCompressed()) return use("block-ldlt", m.block);
  return use("eigen-simplicial-ldlt", m.simplicial);
}

bool LinearSolver::solve_again(const VecX& b, VecX& x) { return impl_->solve_again && impl_->solve_again(b, x); }

bool LinearSolver::solve_again(const MatX& B, MatX& X) {
  return impl_->solve_again_columns && impl_->solve_again_columns(B, X);
}

const char* LinearSolver::name() const { return impl_->last; }

bool LinearSolver::has_cholmod() {
#ifdef EIPC_HAVE_CHOLMOD
  return true;
#else
  return false;
#endif
}

}  // namespace eipc
