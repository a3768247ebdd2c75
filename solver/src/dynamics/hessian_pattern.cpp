#include "eipc/dynamics/hessian_pattern.hpp"

#include <algorithm>

namespace eipc {

int value_slot(const SparseMatrix& m, int row, int col) {
  const int* begin = m.innerIndexPtr() + m.outerIndexPtr()[col];
  const int* end = m.innerIndexPtr() + m.outerIndexPtr()[col + 1];
  const int* it = std::lower_bound(begin, end, row);
  return it != end && *it == row ? static_cast<int>(it - m.innerIndexPtr()) : -1;
}

HessianPattern::HessianPattern(const DofSystem& sys) {
  const int n = sys.num_dofs();
  Triplets t;
  // Mass first, so its duplicates sum in the same order as a triplet assembly would.
  const SparseMatrix& m = sys.node_mass();
  for (int k = 0; k < m.outerSize(); ++k)
    for (SparseMatrix::InnerIterator it(m, k); it; ++it)
      for (int d = 0; d < 3; ++d) t.emplace_back(3 * it.row() + d, 3 * it.col() + d, it.value());
  for (std::size_t i = 0; i < sys.elastic_bodies().size(); ++i) {
    const int offset = 3 * sys.node_offset(sys.elastic_body_index()[i]);
    const Tets& tets = sys.elastic_bodies()[i].tets();
    for (Eigen::Index e = 0; e < tets.rows(); ++e)
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
          for (int d = 0; d < 3; ++d)
            for (int f = 0; f < 3; ++f) t.emplace_back(offset + 3 * tets(e, a) + d, offset + 3 * tets(e, b) + f, 0.0);
  }
  for (std::size_t i = 0; i < sys.rotated_bodies().size(); ++i) {
    const int offset = 3 * sys.node_offset(sys.rotated_body_index()[i]);
    const int dofs = 3 * sys.rotated_bodies()[i].num_nodes();
    for (int c = 0; c < dofs; ++c)
      for (int r = 0; r < dofs; ++r) t.emplace_back(offset + r, offset + c, 0.0);
  }
  for (std::size_t i = 0; i < sys.shell_bodies().size(); ++i) {
    const int offset = 3 * sys.node_offset(sys.shell_body_index()[i]);
    for (const std::array<int, 6>& s : sys.shell_bodies()[i].stencils())
      for (int a : s)
        for (int b : s)
          if (a >= 0 && b >= 0)
            for (int d = 0; d < 3; ++d)
              for (int f = 0; f < 3; ++f) t.emplace_back(offset + 3 * a + d, offset + 3 * b + f, 0.0);
  }
  for (int i = 0; i < n; ++i) t.emplace_back(i, i, 0.0);
  mass_.resize(n, n);
  mass_.setFromTriplets(t.begin(), t.end());
  mass_.makeCompressed();

  diagonal_slots_.resize(n);
  for (int i = 0; i < n; ++i) diagonal_slots_[i] = value_slot(mass_, i, i);
  element_slots_.resize(sys.elastic_bodies().size());
  for (std::size_t i = 0; i < sys.elastic_bodies().size(); ++i) {
    const int offset = 3 * sys.node_offset(sys.elastic_body_index()[i]);
    const Tets& tets = sys.elastic_bodies()[i].tets();
    std::vector<int>& slots = element_slots_[i];
    slots.resize(144 * static_cast<std::size_t>(tets.rows()));
    for (Eigen::Index e = 0; e < tets.rows(); ++e)
      for (int c = 0; c < 12; ++c)
        for (int r = 0; r < 12; ++r)
          slots[144 * e + 12 * c + r] =
              value_slot(mass_, offset + 3 * tets(e, r / 3) + r % 3, offset + 3 * tets(e, c / 3) + c % 3);
  }
  shell_slots_.resize(sys.shell_bodies().size());
  for (std::size_t i = 0; i < sys.shell_bodies().size(); ++i) {
    const int offset = 3 * sys.node_offset(sys.shell_body_index()[i]);
    const auto& stencils = sys.shell_bodies()[i].stencils();
    std::vector<int>& slots = shell_slots_[i];
    slots.assign(324 * stencils.size(), -1);
    for (std::size_t e = 0; e < stencils.size(); ++e)
      for (int c = 0; c < 18; ++c)
        for (int r = 0; r < 18; ++r)
          if (stencils[e][r / 3] >= 0 && stencils[e][c / 3] >= 0)
            slots[324 * e + 18 * c + r] =
                value_slot(mass_, offset + 3 * stencils[e][r / 3] + r % 3, offset + 3 * stencils[e][c / 3] + c % 3);
  }
  dense_slots_.resize(sys.rotated_bodies().size());
  for (std::size_t i = 0; i < sys.rotated_bodies().size(); ++i) {
    const int offset = 3 * sys.node_offset(sys.rotated_body_index()[i]);
    const int dofs = 3 * sys.rotated_bodies()[i].num_nodes();
    std::vector<int>& slots = dense_slots_[i];
    slots.resize(static_cast<std::size_t>(dofs) * dofs);
    for (int c = 0; c < dofs; ++c)
      for (int r = 0; r < dofs; ++r) slots[static_cast<std::size_t>(c) * dofs + r] = value_slot(mass_, offset + r, offset + c);
  }
}

}  // namespace eipc
