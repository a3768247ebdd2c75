// The grid broad phase against the definition: every pair of closed boxes that
// overlap (touching included), each once, sorted; empty boxes overlap nothing.
#include "eipc/certify/box_overlap.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <random>

using namespace eipc;
using namespace eipc::certify;

namespace {

bool is_empty(const Box3& b) { return (b.lo.array() > b.hi.array()).any(); }

std::vector<std::pair<int, int>> brute_force(const std::vector<Box3>& boxes) {
  std::vector<std::pair<int, int>> out;
  for (int i = 0; i < static_cast<int>(boxes.size()); ++i)
    for (int j = i + 1; j < static_cast<int>(boxes.size()); ++j)
      if (!is_empty(boxes[i]) && !is_empty(boxes[j]) && boxes[i].overlaps(boxes[j])) out.emplace_back(i, j);
  return out;
}

Box3 box(const Vec3& lo, const Vec3& hi) {
  Box3 b;
  b.lo = lo;
  b.hi = hi;
  return b;
}

}  // namespace

TEST_CASE("grid broad phase finds exactly the overlapping closed boxes", "[certify][broad_phase]") {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> corner(0, 40), size(0, 3), rare(0, 30);
  for (int round = 0; round < 20; ++round) {
    std::vector<Box3> boxes;
    for (int i = 0; i < 400; ++i) {
      // Integer corners: many boxes touch exactly (a face, an edge, a corner).
      const Vec3 lo(corner(rng), corner(rng), corner(rng));
      Vec3 hi = lo + Vec3(size(rng), size(rng), size(rng));
      if (rare(rng) == 0) hi = lo + Vec3(40, 40, 2);  // covers many cells
      if (rare(rng) == 0) hi = lo - Vec3(1, 0, 0);    // empty
      boxes.push_back(box(0.1 * lo, 0.1 * hi));       // and not exactly on the grid's cells
    }
    if (round == 1) boxes.push_back(box(Vec3(-1e308, 0, 0), Vec3(1e308, 1, 1)));  // infinite extent
    if (round == 2)
      for (auto& b : boxes) b.lo.z() = b.hi.z() = 0.5;  // flat: every box in one plane
    INFO("round " << round);
    const auto all = brute_force(boxes);
    CHECK(overlapping_box_pairs(boxes) == all);
    // Filtered as found: the kept pairs, sorted, each offered once, and the count of all.
    std::vector<std::pair<int, int>> kept;
    for (const auto& [i, j] : all)
      if ((i + j) % 3 == 0) kept.push_back({i, j});
    std::vector<std::atomic<int>> offered(boxes.size() * boxes.size());
    std::size_t overlapping = 0;
    CHECK(overlapping_box_pairs_where(
              boxes,
              [&](int i, int j) {
                ++offered[static_cast<std::size_t>(i) * boxes.size() + static_cast<std::size_t>(j)];
                return i < j && (i + j) % 3 == 0;
              },
              &overlapping) == kept);
    CHECK(overlapping == all.size());
    std::size_t offers = 0;
    for (const auto& n : offered) offers += static_cast<std::size_t>(n);
    CHECK(offers == all.size());
    for (const auto& [i, j] : all) CHECK(offered[static_cast<std::size_t>(i) * boxes.size() + static_cast<std::size_t>(j)] == 1);
  }
  CHECK(overlapping_box_pairs({}).empty());
  CHECK(overlapping_box_pairs({box(Vec3(0, 0, 0), Vec3(0, 0, 0)), box(Vec3(0, 0, 0), Vec3(0, 0, 0))}) ==
        std::vector<std::pair<int, int>>{{0, 1}});  // two points at the same place touch
}

TEST_CASE("grid broad phase with boxes of many sizes, sparse in space", "[certify][broad_phase]") {
  // What the levels are for: small boxes on a surface beside a few boxes up to the whole
  // extent (a cloth and the large triangles of a funnel), clusters far apart, sizes spread
  // over orders of magnitude. Every pair must still be found, each once.
  std::mt19937 rng(59);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<int> tick(0, 1000);
  for (int round = 0; round < 12; ++round) {
    std::vector<Box3> boxes;
    const int n = 600;
    for (int i = 0; i < n; ++i) {
      // Corners on a lattice of 1/1024 (exact): touching boxes are common.
      const Vec3 at = Vec3(tick(rng), tick(rng), tick(rng)) / 1024.0;
      Vec3 lo = at, hi = at;
      switch (round % 4) {
        case 0: {  // a sheet z = 0.5 of small boxes, a few large ones through it
          lo.z() = hi.z() = 0.5;
          hi += Vec3(tick(rng) % 8, tick(rng) % 8, 0) / 1024.0;
          if (i % 50 == 0) hi = lo + Vec3(1, 1, 1) * std::ldexp(1.0, -(tick(rng) % 6));
          break;
        }
        case 1: {  // sizes log-uniform over 2^-12 .. 1
          hi = lo + Vec3(unit(rng), unit(rng), unit(rng)) * std::ldexp(1.0, -(tick(rng) % 13));
          break;
        }
        case 2: {  // two clusters 1e6 apart (a dense grid over the gap would be mostly empty)
          const Vec3 shift = (i % 2) ? Vec3(1e6, 0, 0) : Vec3(0, 0, 0);
          lo = shift + at * 0.01;
          hi = lo + Vec3(tick(rng) % 4, tick(rng) % 4, tick(rng) % 4) / 1024.0 * 0.01;
          if (i == 7) hi = lo + Vec3(1e6, 1, 1);  // one box spanning the gap
          break;
        }
        default: {  // mostly points and segments: the median extent is 0
          if (i % 3 == 0) hi.x() += tick(rng) / 1024.0;
          break;
        }
      }
      boxes.push_back(box(lo, hi));
    }
    INFO("round " << round);
    const auto found = overlapping_box_pairs(boxes);
    const auto expected = brute_force(boxes);
    CHECK(found.size() == expected.size());
    CHECK(found == expected);
  }
}
