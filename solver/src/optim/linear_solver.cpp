#include "eipc/optim/linear_solver.hpp"

#ifdef EIPC_HAVE_CHOLMOD
#include <Eigen/CholmodSupport>
#endif
#include <Eigen/SparseCholesky>

namespace eipc {

namespace {

/// Same nonzero structure (compressed matrices)?
bool same_pattern(const Eigen::SparseMatrix<double>& a, const Eigen::SparseMatrix<double>& b) {
  if (a.rows() != b.rows() || a.nonZeros() != b.nonZeros()) return false;
  return std::equal(a.outerIndexPtr(), a.outerIndexPtr() + a.outerSize() + 1, b.outerIndexPtr()) &&
         std::equal(a.innerIndexPtr(), a.innerIndexPtr() + a.nonZeros(), b.innerIndexPtr());
}

}  // namespace

struct LinearSolver::Impl {
#ifdef EIPC_HAVE_CHOLMOD
  Eigen::CholmodDecomposition<Eigen::SparseMatrix<double>, Eigen::Lower> solver;
#else
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower> solver;
#endif
  Eigen::SparseMatrix<double> pattern;
  bool analysed = false;
};

LinearSolver::LinearSolver() : impl_(std::make_unique<Impl>()) {}
LinearSolver::~LinearSolver() = default;

bool LinearSolver::solve(const Eigen::SparseMatrix<double>& A, const VecX& b, VecX& x) {
  if (!impl_->analysed || !same_pattern(A, impl_->pattern)) {
    impl_->solver.analyzePattern(A);
    impl_->pattern = A;
    impl_->analysed = true;
  }
  impl_->solver.factorize(A);
  if (impl_->solver.info() != Eigen::Success) return false;
  x = impl_->solver.solve(b);
  return impl_->solver.info() == Eigen::Success && x.allFinite();
}

const char* LinearSolver::name() const {
#ifdef EIPC_HAVE_CHOLMOD
  return "cholmod";
#else
  return "eigen-simplicial-ldlt";
#endif
}

}  // namespace eipc
