#include "eipc/optim/block_ldlt.hpp"

#include "eipc/optim/node_ordering.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <stdexcept>

namespace eipc {

void BlockLdlt::analyzePattern(const Eigen::SparseMatrix<double>& a) {
  if (a.rows() != a.cols() || a.rows() % 3 != 0 || !a.isCompressed())
    throw std::invalid_argument("BlockLdlt: matrix must be compressed, square, with a size that is a multiple of 3");
  nodes_ = static_cast<int>(a.rows() / 3);
  const int n = nodes_;
  info_ = Eigen::InvalidInput;

  // Node ordering (new -> old) and its inverse.
  NodeAmdOrdering::PermutationType scalar_perm;
  NodeAmdOrdering()(a, scalar_perm);
  perm_.assign(n, 0);
  std::vector<int> inverse(n);
  for (int k = 0; k < n; ++k) {
    perm_[k] = scalar_perm.indices()[3 * k] / 3;
    inverse[perm_[k]] = k;
  }

  // Upper block triangle of the permuted matrix, by column, rows ascending and unique.
  std::vector<std::vector<int>> columns(n);
  for (int c = 0; c < a.outerSize(); ++c) {
    const int col = inverse[c / 3];
    for (Eigen::SparseMatrix<double>::InnerIterator it(a, c); it; ++it) {
      const int row = inverse[it.index() / 3];
      if (row <= col) columns[col].push_back(row);
    }
  }
  a_col_start_.assign(n + 1, 0);
  a_row_.clear();
  for (int k = 0; k < n; ++k) {
    std::vector<int>& rows = columns[k];
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    a_row_.insert(a_row_.end(), rows.begin(), rows.end());
    a_col_start_[k + 1] = static_cast<int>(a_row_.size());
  }
  a_blocks_.assign(a_row_.size(), Mat3::Zero());

  // Where each stored scalar of the upper block triangle goes.
  scatter_.clear();
  for (int c = 0; c < a.outerSize(); ++c) {
    const int col = inverse[c / 3];
    const int* first = a_row_.data() + a_col_start_[col];
    const int* last = a_row_.data() + a_col_start_[col + 1];
    for (int v = a.outerIndexPtr()[c]; v < a.outerIndexPtr()[c + 1]; ++v) {
      const int r = a.innerIndexPtr()[v];
      const int row = inverse[r / 3];
      if (row > col) continue;
      const int slot = static_cast<int>(std::lower_bound(first, last, row) - a_row_.data());
      scatter_.emplace_back(v, 9 * slot + r % 3 + 3 * (c % 3));
    }
  }

  // Elimination tree of the node graph (with path compression through `ancestor`).
  parent_.assign(n, -1);
  std::vector<int> ancestor(n, -1);
  for (int k = 0; k < n; ++k)
    for (int p = a_col_start_[k]; p < a_col_start_[k + 1]; ++p)
      for (int i = a_row_[p]; i != -1 && i < k;) {
        const int next = ancestor[i];
        ancestor[i] = k;
        if (next == -1) parent_[i] = k;
        i = next;
      }

  // Column counts of L: row k of L has an entry in every column on the tree
  // paths from the rows of column k of A up to k.
  std::vector<int> count(n, 0);
  mark_.assign(n, -1);
  for (int k = 0; k < n; ++k) {
    mark_[k] = k;
    for (int p = a_col_start_[k]; p < a_col_start_[k + 1]; ++p)
      for (int i = a_row_[p]; mark_[i] != k; i = parent_[i]) {
        ++count[i];
        mark_[i] = k;
      }
  }
  l_col_start_.assign(n + 1, 0);
  for (int k = 0; k < n; ++k) l_col_start_[k + 1] = l_col_start_[k] + count[k];
  row_.assign(l_col_start_[n], 0);
  l_.assign(l_col_start_[n], Mat3::Zero());
  d_inv_.assign(n, Mat3::Zero());
  work_.assign(n, Mat3::Zero());
  stack_.assign(n, 0);
  fill_.assign(n, 0);
}

void BlockLdlt::factorize(const Eigen::SparseMatrix<double>& a) {
  const int n = nodes_;
  info_ = Eigen::NumericalIssue;
  std::fill(a_blocks_.begin(), a_blocks_.end(), Mat3::Zero());
  double* blocks = a_blocks_.data()->data();
  const double* values = a.valuePtr();
  for (const auto& [from, to] : scatter_) blocks[to] = values[from];

  std::fill(mark_.begin(), mark_.end(), -1);
  for (int k = 0; k < n; ++k) fill_[k] = l_col_start_[k];
  for (int k = 0; k < n; ++k) {
    // Scatter column k of A (above the diagonal) into the work blocks and
    // collect the pattern of row k of L in topological order in stack_[top, n).
    Mat3 d = Mat3::Zero();
    int top = n;
    mark_[k] = k;
    for (int p = a_col_start_[k]; p < a_col_start_[k + 1]; ++p) {
      int i = a_row_[p];
      if (i == k) {
        d = a_blocks_[p];
        continue;
      }
      work_[i] = a_blocks_[p];
      int length = 0;
      for (; mark_[i] != k; i = parent_[i]) {
        stack_[length++] = i;
        mark_[i] = k;
      }
      while (length > 0) stack_[--top] = stack_[--length];
    }
    // Sparse triangular solve w = L^-1 A(:, k); then L(k, i) = w_i^T D_i^-1.
    for (int t = top; t < n; ++t) {
      const int i = stack_[t];
      const Mat3 w = work_[i];
      work_[i].setZero();
      for (int p = l_col_start_[i]; p < fill_[i]; ++p) work_[row_[p]].noalias() -= l_[p] * w;
      const Mat3 lki = w.transpose() * d_inv_[i];
      d.noalias() -= lki * w;
      row_[fill_[i]] = k;
      l_[fill_[i]++] = lki;
    }
    const Eigen::LLT<Mat3> llt(d);
    if (llt.info() != Eigen::Success || !d.allFinite()) return;
    d_inv_[k] = llt.solve(Mat3::Identity());
  }
  info_ = Eigen::Success;
}

VecX BlockLdlt::solve(const VecX& b) const {
  const int n = nodes_;
  std::vector<Vec3> y(n);
  for (int k = 0; k < n; ++k) y[k] = b.segment<3>(3 * perm_[k]);
  for (int i = 0; i < n; ++i)
    for (int p = l_col_start_[i]; p < l_col_start_[i + 1]; ++p) y[row_[p]].noalias() -= l_[p] * y[i];
  for (int i = 0; i < n; ++i) y[i] = d_inv_[i] * y[i];
  for (int i = n - 1; i >= 0; --i)
    for (int p = l_col_start_[i]; p < l_col_start_[i + 1]; ++p) y[i].noalias() -= l_[p].transpose() * y[row_[p]];
  VecX x(b.size());
  for (int k = 0; k < n; ++k) x.segment<3>(3 * perm_[k]) = y[k];
  return x;
}

}  // namespace eipc
