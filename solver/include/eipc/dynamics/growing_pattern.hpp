// The Newton matrix's sparsity: the fixed pattern (HessianPattern) plus the
// full 3x3 node blocks of every contact node pair seen so far. Contact blocks
// are added straight into its values through slot look-ups (no triplets, no
// sparse-sparse sums), and because the pattern only grows when a new node pair
// comes into contact, the sparse Cholesky's symbolic analysis is reused across
// iterations and steps. Entries of pairs no longer in contact stay as zeros;
// when those make the pattern more than twice the fixed one it starts afresh.
#pragma once

#include "eipc/dynamics/dof_system.hpp"

#include <array>
#include <utility>
#include <vector>

namespace eipc {

class GrowingPattern {
public:
  /// Starts as `fixed` (its values are ignored); rows and columns are x y z per node.
  explicit GrowingPattern(const SparseMatrix& fixed);

  /// The current pattern with zero values.
  const SparseMatrix& matrix() const { return matrix_; }
  /// Position in matrix()'s values of each value of the fixed pattern.
  const std::vector<int>& fixed_slots() const { return fixed_slots_; }
  /// Value positions of entries (3 row_node, 3 col_node + b), b = 0..2; rows
  /// 3 row_node + 1, + 2 follow each. nullptr if the full block is not stored.
  const std::array<int, 3>* block_slots(int row_node, int col_node) const;

  /// Adds the full node blocks (row_node, col_node) of `pairs`.
  void grow(const std::vector<std::pair<int, int>>& pairs);
  /// Back to the fixed pattern if the added blocks outnumber its entries.
  void reset_if_oversized();
  /// How often the pattern grew (for measurements and tests).
  int growths() const { return growths_; }

private:
  struct BlockEntry {
    int row_node;
    std::array<int, 3> slots;
  };
  void rebuild(const std::vector<std::pair<int, int>>& pairs, const SparseMatrix& from);

  SparseMatrix fixed_;
  SparseMatrix matrix_;
  std::vector<int> fixed_slots_;
  std::vector<std::vector<BlockEntry>> blocks_;  ///< per column node, full blocks by increasing row node
  int growths_ = 0;
  /// Entries matrix_'s storage holds (resize() keeps it): grown by half again
  /// when outgrown, so most growths reuse memory already touched.
  std::size_t reserved_ = 0;
};

}  // namespace eipc
