#include "eipc/dynamics/growing_pattern.hpp"

#include "eipc/dynamics/hessian_pattern.hpp"

#include <algorithm>

namespace eipc {

namespace {

/// Slot of (3 row_node, col) if rows 3 row_node .. + 2 are all stored in column
/// col, else -1. `from` is a slot of column col at or before that row (a
/// cursor for ascending rows); it moves on to the first row not below.
int full_block_column(const SparseMatrix& m, int row_node, int col, int& from) {
  const int* rows = m.innerIndexPtr();
  const int end = m.outerIndexPtr()[col + 1];
  while (from < end && rows[from] < 3 * row_node) ++from;
  const int slot = from;
  if (slot + 2 >= end || rows[slot] != 3 * row_node) return -1;
  return rows[slot + 1] == 3 * row_node + 1 && rows[slot + 2] == 3 * row_node + 2 ? slot : -1;
}

}  // namespace

GrowingPattern::GrowingPattern(const SparseMatrix& fixed) : fixed_(fixed) {
  fixed_.makeCompressed();
  std::fill(fixed_.valuePtr(), fixed_.valuePtr() + fixed_.nonZeros(), 0.0);
  rebuild({}, fixed_);
  growths_ = 0;
}

const std::array<int, 3>* GrowingPattern::block_slots(int row_node, int col_node) const {
  const std::vector<BlockEntry>& column = blocks_[col_node];
  const auto it = std::lower_bound(column.begin(), column.end(), row_node,
                                   [](const BlockEntry& e, int node) { return e.row_node < node; });
  return it != column.end() && it->row_node == row_node ? &it->slots : nullptr;
}

void GrowingPattern::grow(const std::vector<std::pair<int, int>>& pairs) {
  if (pairs.empty()) return;
  rebuild(pairs, matrix_);
  ++growths_;
}

void GrowingPattern::reset_if_oversized() {
  if (matrix_.nonZeros() > 2 * fixed_.nonZeros()) rebuild({}, fixed_);
}

void GrowingPattern::rebuild(const std::vector<std::pair<int, int>>& pairs, const SparseMatrix& from) {
  // The union of `from` and the pairs' blocks, column by column: a merge of
  // two sorted row lists (what setFromTriplets gave, without its sort).
  const int nodes = static_cast<int>(fixed_.cols() / 3);
  std::vector<std::vector<int>> added(nodes);  // row nodes per column node
  for (const auto& [r, c] : pairs) added[c].push_back(r);
  for (std::vector<int>& rows_of : added) {
    std::sort(rows_of.begin(), rows_of.end());
    rows_of.erase(std::unique(rows_of.begin(), rows_of.end()), rows_of.end());
  }
  std::vector<int> outer(std::size_t(fixed_.cols()) + 1, 0), inner;
  inner.reserve(std::size_t(from.nonZeros()) + 9 * pairs.size());
  for (int col = 0; col < from.outerSize(); ++col) {
    const int* p = from.innerIndexPtr() + from.outerIndexPtr()[col];
    const int* end = from.innerIndexPtr() + from.outerIndexPtr()[col + 1];
    for (int r : added[col / 3])
      for (int row = 3 * r; row < 3 * r + 3; ++row) {
        for (; p < end && *p < row; ++p) inner.push_back(*p);
        if (p < end && *p == row) ++p;
        inner.push_back(row);
      }
    inner.insert(inner.end(), p, end);
    outer[std::size_t(col) + 1] = static_cast<int>(inner.size());
  }
  // Straight into matrix_'s compressed arrays; assigning a Map went entry by
  // entry, as much work as all the rest. The storage is reserved with room to
  // grow: a new block of it at every growth cost page faults (60 us a growth).
  matrix_.resize(fixed_.rows(), fixed_.cols());
  if (inner.size() > reserved_) {
    reserved_ = inner.size() + inner.size() / 2;
    matrix_.reserve(static_cast<Eigen::Index>(reserved_));
  }
  matrix_.resizeNonZeros(static_cast<Eigen::Index>(inner.size()));
  std::copy(outer.begin(), outer.end(), matrix_.outerIndexPtr());
  std::copy(inner.begin(), inner.end(), matrix_.innerIndexPtr());
  std::fill_n(matrix_.valuePtr(), inner.size(), 0.0);

  // Both patterns' columns are sorted: one walk along each pair of columns
  // (matrix_ holds every entry of fixed_).
  const int* rows = matrix_.innerIndexPtr();
  fixed_slots_.resize(fixed_.nonZeros());
  for (int col = 0; col < fixed_.outerSize(); ++col) {
    int p = matrix_.outerIndexPtr()[col];
    const int end = matrix_.outerIndexPtr()[col + 1];
    for (int k = fixed_.outerIndexPtr()[col]; k < fixed_.outerIndexPtr()[col + 1]; ++k) {
      const int row = fixed_.innerIndexPtr()[k];
      while (p < end && rows[p] < row) ++p;
      fixed_slots_[k] = p < end && rows[p] == row ? p : -1;
    }
  }

  // Index every full 3x3 node block (fixed element blocks and contact blocks
  // alike), walking a node's three columns side by side.
  blocks_.assign(nodes, {});
  for (int s = 0; s < nodes; ++s) {
    int cursor[3] = {matrix_.outerIndexPtr()[3 * s], matrix_.outerIndexPtr()[3 * s + 1],
                     matrix_.outerIndexPtr()[3 * s + 2]};
    for (SparseMatrix::InnerIterator it(matrix_, 3 * s); it; ++it) {
      if (it.row() % 3 != 0) continue;
      const int u = static_cast<int>(it.row() / 3);
      BlockEntry e{u, {}};
      bool full = true;
      for (int b = 0; b < 3 && full; ++b) full = (e.slots[b] = full_block_column(matrix_, u, 3 * s + b, cursor[b])) >= 0;
      if (full) blocks_[s].push_back(e);
    }
  }
}

}  // namespace eipc
