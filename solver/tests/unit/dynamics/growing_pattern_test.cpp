// GrowingPattern: block look-ups, growth keeps every fixed entry, reset.
#include "eipc/dynamics/growing_pattern.hpp"
#include "eipc/dynamics/hessian_pattern.hpp"

#include <catch2/catch.hpp>

using namespace eipc;

TEST_CASE("a growing pattern finds full node blocks and keeps the fixed entries", "[dynamics]") {
  // Three nodes: a full block (0,1)/(1,0), diagonals everywhere, one lone entry (6, 0).
  Triplets t;
  for (int i = 0; i < 9; ++i) t.emplace_back(i, i, 1.0);
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) {
      t.emplace_back(a, 3 + b, 1.0);
      t.emplace_back(3 + a, b, 1.0);
      t.emplace_back(a, b, 1.0);
      t.emplace_back(3 + a, 3 + b, 1.0);
    }
  t.emplace_back(6, 0, 1.0);
  SparseMatrix fixed(9, 9);
  fixed.setFromTriplets(t.begin(), t.end());
  fixed.makeCompressed();
  GrowingPattern p(fixed);
  CHECK(p.matrix().nonZeros() == fixed.nonZeros());
  REQUIRE(p.block_slots(0, 1) != nullptr);
  const std::array<int, 3> s01 = *p.block_slots(0, 1);
  for (int b = 0; b < 3; ++b) CHECK(s01[b] == value_slot(p.matrix(), 0, 3 + b));
  CHECK(p.block_slots(2, 0) == nullptr);  // only (6, 0) of that block is stored
  CHECK(p.block_slots(2, 2) == nullptr);  // diagonal only

  p.grow({{2, 0}, {0, 2}, {2, 2}});
  CHECK(p.growths() == 1);
  CHECK(p.matrix().nonZeros() == fixed.nonZeros() - 1 - 3 + 27);
  for (auto [r, c] : {std::pair{2, 0}, std::pair{0, 2}, std::pair{2, 2}, std::pair{1, 0}}) {
    REQUIRE(p.block_slots(r, c) != nullptr);
    for (int b = 0; b < 3; ++b)
      for (int a = 0; a < 3; ++a)
        CHECK(p.matrix().innerIndexPtr()[(*p.block_slots(r, c))[b] + a] == 3 * r + a);
  }
  // Each fixed entry maps to the same (row, col) in the grown pattern.
  for (int col = 0; col < 9; ++col)
    for (int k = fixed.outerIndexPtr()[col]; k < fixed.outerIndexPtr()[col + 1]; ++k)
      CHECK(p.fixed_slots()[k] == value_slot(p.matrix(), fixed.innerIndexPtr()[k], col));

  // 40 fixed entries, 63 now: not oversized; past 80 it is, and starts afresh.
  CHECK(fixed.nonZeros() == 40);
  p.reset_if_oversized();
  CHECK(p.matrix().nonZeros() == 63);
  p.grow({{1, 2}, {2, 1}});
  CHECK(p.matrix().nonZeros() == 81);
  p.reset_if_oversized();
  CHECK(p.matrix().nonZeros() == 40);
  CHECK(p.block_slots(2, 0) == nullptr);
  CHECK(p.block_slots(1, 0) != nullptr);
}
