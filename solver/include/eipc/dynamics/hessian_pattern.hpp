// The part of the Newton matrix's sparsity that never changes during a
// simulation: the 3x3 node blocks of the reduced mass matrix, of every elastic
// element, of all node pairs of every rotated (coarsened) body, of every shell triangle's stencil, and of every
// diagonal. It is built once per DofSystem, so each iteration copies it and adds
// element blocks straight into its values through precomputed positions (no
// triplets, no sorting), and the sparse Cholesky sees the same pattern from one
// iteration to the next.
#pragma once

#include "eipc/dynamics/dof_system.hpp"

#include <vector>

namespace eipc {

class HessianPattern {
public:
  explicit HessianPattern(const DofSystem& system);

  /// The pattern with M^q (x) I3 as values (every other entry 0).
  const SparseMatrix& mass() const { return mass_; }
  /// Value positions of the 12x12 block of tet `tet` of elastic body `elastic_body`
  /// (index into elastic_bodies()), column-major as Eigen stores a Mat<12>: entry
  /// (3a+i, 3b+j) at (3b+j) * 12 + (3a+i), so a block is added in its memory order.
  const int* element_slots(int elastic_body, int tet) const {
    return &element_slots_[elastic_body][144 * static_cast<std::size_t>(tet)];
  }
  /// Value positions of the 18x18 block of triangle `triangle` of shell body
  /// `shell_body` (index into shell_bodies()), column-major; -1 where the stencil
  /// has no vertex (a boundary edge).
  const int* shell_slots(int shell_body, int triangle) const {
    return &shell_slots_[shell_body][324 * static_cast<std::size_t>(triangle)];
  }
  /// Value positions of the dense block of rotated body `rotated_body` (index into
  /// rotated_bodies()), column-major: entry (r, c) of its 3n x 3n Hessian at c * 3n + r.
  const std::vector<int>& dense_slots(int rotated_body) const { return dense_slots_[rotated_body]; }
  /// Value position of diagonal entry (dof, dof).
  int diagonal_slot(int dof) const { return diagonal_slots_[dof]; }

private:
  SparseMatrix mass_;
  std::vector<std::vector<int>> element_slots_;
  std::vector<std::vector<int>> dense_slots_;
  std::vector<std::vector<int>> shell_slots_;
  std::vector<int> diagonal_slots_;
};

/// Position of entry (row, col) in the values of a compressed column-major matrix (-1 if not stored).
int value_slot(const SparseMatrix& m, int row, int col);

}  // namespace eipc
