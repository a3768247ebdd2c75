// Closed-box broad phase on a uniform grid. Each box is listed in the grid cells
// it covers; two boxes are compared in the one cell where the lower corner of
// their overlap lies, so each pair is found once. Cell indices are a monotone
// function of the coordinates, so boxes that overlap (even only touching) share
// that cell whatever the rounding: the grid only decides which pairs are
// compared, the exact double comparisons decide which overlap. Boxes covering
// many cells are compared with every box instead. Replaces CGAL's
// box_self_intersection_d, which took most of a 150k-triangle frame's check
// (docs/certify.md, "Cost").
#include "eipc/certify/box_overlap.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace eipc::certify {
namespace {

/// Boxes covering more cells than this are compared with all boxes.
constexpr long kMaxCellsPerBox = 64;

struct Grid {
  Vec3 origin;
  double cell = 1.0;
  std::array<long, 3> dims{1, 1, 1};

  /// Cell coordinate of x along axis k: monotone in x, clamped to the grid.
  long coordinate(double x, int k) const {
    const double c = std::floor((x - origin[k]) / cell);
    if (!(c > 0.0)) return 0;  // also NaN, from an infinite extent
    return c >= static_cast<double>(dims[k] - 1) ? dims[k] - 1 : static_cast<long>(c);
  }
  std::array<long, 3> lo_cell(const Box3& b) const { return {coordinate(b.lo.x(), 0), coordinate(b.lo.y(), 1), coordinate(b.lo.z(), 2)}; }
  std::array<long, 3> hi_cell(const Box3& b) const { return {coordinate(b.hi.x(), 0), coordinate(b.hi.y(), 1), coordinate(b.hi.z(), 2)}; }
  long index(long i, long j, long k) const { return i + dims[0] * (j + dims[1] * k); }
};

/// A grid of cells about twice the mean box size, with at most ~8 cells per box.
Grid make_grid(const std::vector<Box3>& boxes, const std::vector<int>& valid) {
  Box3 all;
  double extent = 0.0;
  for (int i : valid) {
    all.extend(boxes[i].lo);
    all.extend(boxes[i].hi);
    extent += (boxes[i].hi - boxes[i].lo).maxCoeff();
  }
  const Vec3 size = all.hi - all.lo;
  const double n = static_cast<double>(valid.size());
  Grid g;
  g.origin = all.lo;
  if (!size.allFinite()) {  // coordinates near the double range: one cell, still exact
    g.cell = std::numeric_limits<double>::infinity();
    return g;
  }
  g.cell = 2.0 * extent / n;
  if (!(g.cell > 0.0)) g.cell = size.maxCoeff() > 0.0 ? size.maxCoeff() / std::cbrt(n) : 1.0;
  auto cell_count = [&] {
    double c = 1.0;
    for (int k = 0; k < 3; ++k) c *= std::floor(size[k] / g.cell) + 1.0;
    return c;
  };
  while (cell_count() > 8.0 * n + 64.0) g.cell *= 1.5;  // memory linear in the boxes
  for (int k = 0; k < 3; ++k) g.dims[k] = static_cast<long>(std::floor(size[k] / g.cell)) + 1;
  return g;
}

}  // namespace

std::vector<std::pair<int, int>> overlapping_box_pairs(const std::vector<Box3>& boxes) {
  std::vector<int> valid;  // boxes with lo <= hi (an empty box overlaps nothing)
  for (std::size_t i = 0; i < boxes.size(); ++i)
    if ((boxes[i].lo.array() <= boxes[i].hi.array()).all()) valid.push_back(static_cast<int>(i));
  if (valid.size() < 2) return {};
  const Grid grid = make_grid(boxes, valid);

  // Cell lists (compressed rows): each box in every cell it covers, large boxes apart.
  const long cells = grid.dims[0] * grid.dims[1] * grid.dims[2];
  std::vector<int> start(static_cast<std::size_t>(cells) + 1, 0), large;
  std::vector<char> is_large(boxes.size(), 0);
  auto for_cells = [&](const Box3& b, auto&& f) {
    const auto lo = grid.lo_cell(b), hi = grid.hi_cell(b);
    for (long k = lo[2]; k <= hi[2]; ++k)
      for (long j = lo[1]; j <= hi[1]; ++j)
        for (long i = lo[0]; i <= hi[0]; ++i) f(grid.index(i, j, k));
  };
  std::vector<std::array<long, 3>> lo_cell(boxes.size());  // computed once: compared per candidate below
  for (int b : valid) {
    const auto lo = grid.lo_cell(boxes[b]), hi = grid.hi_cell(boxes[b]);
    lo_cell[b] = lo;
    if ((hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1) > kMaxCellsPerBox) {
      is_large[b] = 1;
      large.push_back(b);
    } else {
      for_cells(boxes[b], [&](long c) { ++start[c + 1]; });
    }
  }
  for (long c = 0; c < cells; ++c) start[c + 1] += start[c];
  std::vector<int> members(static_cast<std::size_t>(start[cells]));
  std::vector<int> fill(start.begin(), start.end() - 1);
  for (int b : valid)  // increasing b: every cell lists its boxes in increasing order
    if (!is_large[b]) for_cells(boxes[b], [&](long c) { members[fill[c]++] = b; });

  // Per box a, its partners b > a, found in parallel, each list sorted: concatenated in
  // order of a they are the sorted pair list.
  std::vector<std::vector<int>> partners(boxes.size());
  tbb::parallel_for(std::size_t(0), valid.size(), [&](std::size_t v) {
    const int a = valid[v];
    std::vector<int>& out = partners[a];
    if (is_large[a]) {
      for (int b : valid)
        if (b > a && boxes[a].overlaps(boxes[b])) out.push_back(b);
      return;
    }
    const auto& alo = lo_cell[a];
    for_cells(boxes[a], [&](long c) {
      // A cell lists its boxes in increasing order: the partners b > a are a suffix.
      const auto end = members.begin() + start[c + 1];
      for (auto m = std::upper_bound(members.begin() + start[c], end, a); m != end; ++m) {
        const int b = *m;
        if (!boxes[a].overlaps(boxes[b])) continue;
        const auto& blo = lo_cell[b];  // the overlap's lower corner is in this cell only
        if (grid.index(std::max(alo[0], blo[0]), std::max(alo[1], blo[1]), std::max(alo[2], blo[2])) == c)
          out.push_back(b);
      }
    });
    for (int b : large)  // a small box meets a large one only here
      if (b > a && boxes[a].overlaps(boxes[b])) out.push_back(b);
    std::sort(out.begin(), out.end());
  });
  std::size_t total = 0;
  for (const auto& p : partners) total += p.size();
  std::vector<std::pair<int, int>> pairs;
  pairs.reserve(total);
  for (std::size_t a = 0; a < partners.size(); ++a)
    for (int b : partners[a]) pairs.emplace_back(static_cast<int>(a), b);
  return pairs;
}

}  // namespace eipc::certify
