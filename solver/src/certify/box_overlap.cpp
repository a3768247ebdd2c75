// Closed-box broad phase on hashed grids of several cell sizes (levels). A box belongs to
// the finest level whose cells are at least its largest extent (the finest about twice the
// median box, each next one 4x coarser), so it covers at most about two cells per axis
// there whatever the other boxes' sizes. Two boxes are compared on the level of the
// coarser one, in the one cell of that level where the lower corner of their overlap lies,
// so each pair is found once. Cell coordinates are a monotone function of the coordinates,
// so boxes that overlap (even only touching) share that cell whatever the rounding: the
// grids only decide which pairs are compared, the exact double comparisons decide which
// overlap. Cells are hashed: memory follows the boxes, not the volume they span. (A dense
// grid capped at 8 cells a box made cells 5x the median triangle on a cloth in a funnel,
// its few large triangles spanning many cells: docs/certify.md, "Cost".)
#include "eipc/certify/box_overlap.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

namespace eipc::certify {
namespace {

constexpr double kLevelRatio = 4.0;  // cell size from one level to the next
constexpr int kMaxLevels = 24;
constexpr int kCoordinateBits = 20;  // per axis in a cell's key
constexpr long kMaxCoordinate = (1L << kCoordinateBits) - 1;

using Cell = std::array<long, 3>;
using Key = std::uint64_t;

Key key_of(const Cell& c) {
  return static_cast<Key>(c[0]) | static_cast<Key>(c[1]) << kCoordinateBits |
         static_cast<Key>(c[2]) << (2 * kCoordinateBits);
}

/// One level's cells, hashed into buckets: the entries of bucket h are
/// entries[start[h], start[h + 1]), in increasing box order.
struct Level {
  double cell = 1.0;
  Box3 extent;  ///< of its boxes: a box apart from it meets none of them
  struct Entry {
    Key key;
    int box;
  };
  std::vector<Entry> entries;
  std::vector<std::size_t> start{0, 0};
  int shift = 64;  ///< bucket = the hash's top bits (64: one bucket)

  std::size_t bucket(Key k) const { return shift >= 64 ? 0 : (k * 0x9E3779B97F4A7C15ull) >> shift; }
};

struct Grids {
  Vec3 origin;
  std::vector<Level> levels;

  /// Cell coordinate of x along axis k on a level: monotone in x, clamped to the key's range.
  long coordinate(double x, int k, double cell) const {
    const double c = std::floor((x - origin[k]) / cell);
    if (!(c > 0.0)) return 0;  // also NaN, from an infinite extent
    return c >= static_cast<double>(kMaxCoordinate) ? kMaxCoordinate : static_cast<long>(c);
  }
  Cell cell_of(const Vec3& p, int level) const {
    const double c = levels[level].cell;
    return {coordinate(p.x(), 0, c), coordinate(p.y(), 1, c), coordinate(p.z(), 2, c)};
  }
};

template <class F>
void for_cells(const Cell& lo, const Cell& hi, F&& f) {
  for (long k = lo[2]; k <= hi[2]; ++k)
    for (long j = lo[1]; j <= hi[1]; ++j)
      for (long i = lo[0]; i <= hi[0]; ++i) f(Cell{i, j, k});
}

/// The levels' cell sizes, and each valid box's level.
Grids make_grids(const std::vector<Box3>& boxes, const std::vector<int>& valid, std::vector<int>& level) {
  Box3 all;
  std::vector<double> extent;
  extent.reserve(valid.size());
  for (int i : valid) {
    all.extend(boxes[i].lo);
    all.extend(boxes[i].hi);
    extent.push_back((boxes[i].hi - boxes[i].lo).maxCoeff());
  }
  const Vec3 size = all.hi - all.lo;
  Grids g;
  g.origin = all.lo;
  const double span = size.maxCoeff();
  if (!size.allFinite()) {  // coordinates near the double range: one cell, still exact
    g.levels.resize(1);
    g.levels[0].cell = std::numeric_limits<double>::infinity();
    for (int i : valid) level[i] = 0;
    return g;
  }
  const auto mid = extent.begin() + static_cast<long>(extent.size() / 2);
  std::nth_element(extent.begin(), mid, extent.end());
  double cell = 2.0 * *mid;
  if (!(cell > 0.0)) cell = span > 0.0 ? span / std::cbrt(static_cast<double>(valid.size())) : 1.0;
  cell = std::max(cell, span / static_cast<double>(kMaxCoordinate / 2));  // keys within range
  // Levels up to one whose cells hold the whole extent: every box fits some level.
  do {
    g.levels.emplace_back().cell = cell;
    cell *= kLevelRatio;
  } while (g.levels.back().cell < span && static_cast<int>(g.levels.size()) < kMaxLevels);
  const int top = static_cast<int>(g.levels.size()) - 1;
  for (int i : valid) {
    const double e = (boxes[i].hi - boxes[i].lo).maxCoeff();
    int l = 0;
    while (l < top && e > g.levels[l].cell) ++l;
    level[i] = l;
  }
  return g;
}

/// Lists every box of a level in the cells it covers there (increasing box order per bucket).
void fill_level(Grids& g, int l, const std::vector<Box3>& boxes, const std::vector<int>& members,
                const std::vector<Cell>& lo_cell) {
  Level& lv = g.levels[l];
  std::size_t count = 0;
  for (int b : members) {
    const Cell hi = g.cell_of(boxes[b].hi, l);
    count += static_cast<std::size_t>((hi[0] - lo_cell[b][0] + 1) * (hi[1] - lo_cell[b][1] + 1) *
                                      (hi[2] - lo_cell[b][2] + 1));
    lv.extent.extend(boxes[b].lo);
    lv.extent.extend(boxes[b].hi);
  }
  int bits = 0;  // about two buckets an entry
  while ((std::size_t(1) << bits) < 2 * count && bits < 40) ++bits;
  lv.shift = 64 - bits;
  const std::size_t buckets = std::size_t(1) << bits;
  lv.start.assign(buckets + 1, 0);
  for (int b : members)
    for_cells(lo_cell[b], g.cell_of(boxes[b].hi, l), [&](const Cell& c) { ++lv.start[lv.bucket(key_of(c)) + 1]; });
  for (std::size_t h = 0; h < buckets; ++h) lv.start[h + 1] += lv.start[h];
  lv.entries.resize(count);
  std::vector<std::size_t> fill(lv.start.begin(), lv.start.end() - 1);
  for (int b : members)  // increasing b: every bucket lists its boxes in increasing order
    for_cells(lo_cell[b], g.cell_of(boxes[b].hi, l), [&](const Cell& c) {
      const Key k = key_of(c);
      lv.entries[fill[lv.bucket(k)]++] = {k, b};
    });
}

}  // namespace

std::vector<std::pair<int, int>> overlapping_box_pairs(const std::vector<Box3>& boxes) {
  return overlapping_box_pairs_where(boxes, nullptr);
}

std::vector<std::pair<int, int>> overlapping_box_pairs_where(const std::vector<Box3>& boxes,
                                                             const std::function<bool(int, int)>& keep,
                                                             std::size_t* overlapping) {
  if (overlapping) *overlapping = 0;
  std::vector<int> valid;  // boxes with lo <= hi (an empty box overlaps nothing)
  for (std::size_t i = 0; i < boxes.size(); ++i)
    if ((boxes[i].lo.array() <= boxes[i].hi.array()).all()) valid.push_back(static_cast<int>(i));
  if (valid.size() < 2) return {};
  std::vector<int> level(boxes.size(), -1);
  Grids grids = make_grids(boxes, valid, level);
  const int levels = static_cast<int>(grids.levels.size());

  // Each box's lower cell on its own level (compared per candidate below), and the levels' lists.
  std::vector<Cell> lo_cell(boxes.size());
  tbb::parallel_for(std::size_t(0), valid.size(), [&](std::size_t v) {
    const int b = valid[v];
    lo_cell[b] = grids.cell_of(boxes[b].lo, level[b]);
  });
  std::vector<std::vector<int>> members(levels);
  for (int b : valid) members[level[b]].push_back(b);
  for (int l = 0; l < levels; ++l)
    if (!members[l].empty()) fill_level(grids, l, boxes, members[l], lo_cell);

  // Per box a, the partners it is compared with: on its own level those b > a, on every
  // coarser level all (a pair of two levels is found from its finer box only).
  std::vector<std::vector<int>> partners(boxes.size());  // those kept
  std::vector<std::size_t> found(boxes.size(), 0);       // all overlapping
  tbb::parallel_for(std::size_t(0), valid.size(), [&](std::size_t v) {
    const int a = valid[v];
    const Box3& box = boxes[a];
    std::vector<int>& out = partners[a];
    for (int l = level[a]; l < levels; ++l) {
      const Level& lv = grids.levels[l];
      if (lv.entries.empty() || !box.overlaps(lv.extent)) continue;
      const Cell alo = l == level[a] ? lo_cell[a] : grids.cell_of(box.lo, l);
      for_cells(alo, grids.cell_of(box.hi, l), [&](const Cell& c) {
        const Key key = key_of(c);
        const std::size_t h = lv.bucket(key);
        auto first = lv.entries.begin() + static_cast<long>(lv.start[h]);
        const auto last = lv.entries.begin() + static_cast<long>(lv.start[h + 1]);
        if (l == level[a])  // a bucket lists its boxes in increasing order: b > a are a suffix
          first = std::upper_bound(first, last, a, [](int x, const Level::Entry& e) { return x < e.box; });
        for (auto e = first; e != last; ++e) {
          if (e->key != key) continue;  // another cell in this bucket
          const int b = e->box;
          if (!box.overlaps(boxes[b])) continue;
          const Cell& blo = lo_cell[b];  // on level l, b's own: the overlap's lower corner is in this cell only
          if (key_of({std::max(alo[0], blo[0]), std::max(alo[1], blo[1]), std::max(alo[2], blo[2])}) != key) continue;
          ++found[a];
          if (!keep || keep(std::min(a, b), std::max(a, b))) out.push_back(b);
        }
      });
    }
  });

  if (overlapping)
    for (std::size_t f : found) *overlapping += f;

  // Sorted pair list: rows by the smaller index (counting), each row sorted.
  std::vector<std::size_t> row(boxes.size() + 1, 0);
  for (std::size_t a = 0; a < boxes.size(); ++a)
    for (int b : partners[a]) ++row[static_cast<std::size_t>(std::min(static_cast<int>(a), b)) + 1];
  for (std::size_t r = 0; r < boxes.size(); ++r) row[r + 1] += row[r];
  std::vector<std::pair<int, int>> pairs(row.back());
  {
    std::vector<std::size_t> fill(row.begin(), row.end() - 1);
    for (std::size_t a = 0; a < boxes.size(); ++a) {
      for (int b : partners[a]) {
        const int i = std::min(static_cast<int>(a), b), j = std::max(static_cast<int>(a), b);
        pairs[fill[static_cast<std::size_t>(i)]++] = {i, j};
      }
      std::vector<int>().swap(partners[a]);
    }
  }
  tbb::parallel_for(std::size_t(0), boxes.size(), [&](std::size_t r) {
    std::sort(pairs.begin() + static_cast<long>(row[r]), pairs.begin() + static_cast<long>(row[r + 1]));
  });
  return pairs;
}

}  // namespace eipc::certify
