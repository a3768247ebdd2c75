// Sparse LDL^T factorisation on 3x3 node blocks: A = P^T L D L^T P with L unit
// block-lower-triangular and D block-diagonal (dense SPD 3x3 blocks). Newton
// matrices couple nodes, not coordinates, so working on blocks does one index
// look-up per 27 multiply-adds instead of per one, which makes it several times
// faster than a scalar simplicial factorisation at the sizes of our scenes
// (0.5k-15k unknowns). Ordering: AMD on the node graph. Up-looking algorithm:
// row k of L solves a triangular system whose sparsity is the reach of row k
// of A in the elimination tree.
//
// Rows in disjoint subtrees of the elimination tree read and write disjoint
// parts of L (row k touches only its descendants' columns), so the analysis
// splits the tree into subtrees packed into one task per thread, factorised
// side by side, and the rows above them, factorised after. Every row does
// the same arithmetic in the same order as in the serial sweep, so the factor
// is bit-identical for any thread count.
#pragma once

#include "eipc/common.hpp"

#include <Eigen/Sparse>
#include <vector>

namespace eipc {

class BlockLdlt {
public:
  // Named like Eigen's sparse solvers so either can be used interchangeably.
  /// Symbolic analysis of a symmetric matrix (both triangles stored; throws
  /// std::invalid_argument unless square with a size that is a multiple of 3).
  void analyzePattern(const Eigen::SparseMatrix<double>& a);
  /// Numeric factorisation of a matrix with the analysed pattern; info() tells
  /// whether it succeeded (NumericalIssue: not positive definite).
  void factorize(const Eigen::SparseMatrix<double>& a);
  Eigen::ComputationInfo info() const { return info_; }
  /// x = A^-1 b with the last successful factorisation.
  VecX solve(const VecX& b) const;
  /// Stored 3x3 blocks of L (without the unit diagonal).
  std::size_t factor_blocks() const { return row_.size(); }
  /// Tasks factorised side by side (0: serial), as planned by the last analysis.
  std::size_t parallel_tasks() const { return tasks_.size(); }

private:
  /// Work space of the up-looking factorisation (one per concurrent task).
  struct Scratch {
    std::vector<Mat3> work;
    std::vector<int> mark, stack;
  };
  /// Row k of L and D^-1_k; false if the pivot block is not positive definite.
  bool factorize_row(int k, Scratch& s);
  /// Splits the elimination tree into tasks_ (none: serial) for `threads` threads.
  void plan_tasks(int threads);

  Eigen::ComputationInfo info_ = Eigen::InvalidInput;
  int nodes_ = 0;
  std::vector<int> perm_;     ///< perm_[new node] = old node
  std::vector<int> parent_;   ///< elimination tree (new numbering), -1 at roots
  // Upper triangle of P A P^T by node columns: blocks (row, col) with row <= col.
  std::vector<int> a_col_start_, a_row_;
  /// For each stored scalar of A in the upper block triangle: its block slot * 9 + row offset + 3 * col offset.
  std::vector<std::pair<int, int>> scatter_;  ///< (value index in A, destination in a_blocks_' doubles)
  std::vector<Mat3> a_blocks_;
  // L by node columns (rows ascending within a column).
  std::vector<int> l_col_start_, row_;
  std::vector<Mat3> l_;
  std::vector<Mat3> d_inv_;
  std::vector<int> fill_;  ///< next free entry of each column of L
  // Rows of disjoint subtrees, one list per task (ascending), then the rest
  // (ascending; every row when there are no tasks).
  std::vector<std::vector<int>> tasks_;
  std::vector<int> top_;
  std::vector<Scratch> scratch_;  ///< one per task (the first also serves top_)
};

}  // namespace eipc
