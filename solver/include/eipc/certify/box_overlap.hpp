// Broad phase for certification: all pairs of overlapping closed axis-aligned
// boxes (CGAL::box_self_intersection_d). Boxes built from the min/max of
// double coordinates are exact, and closed boxes make touching count.
#pragma once

#include "eipc/common.hpp"

#include <cstddef>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

namespace eipc::certify {

/// Closed box [lo, hi] (component-wise).
struct Box3 {
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity());
  Vec3 hi = Vec3::Constant(-std::numeric_limits<double>::infinity());
  void extend(const Vec3& p) { lo = lo.cwiseMin(p); hi = hi.cwiseMax(p); }
  bool overlaps(const Box3& o) const {
    return (lo.array() <= o.hi.array()).all() && (o.lo.array() <= hi.array()).all();
  }
};

/// Every pair (i, j), i < j, of boxes whose closed extents overlap, sorted.
std::vector<std::pair<int, int>> overlapping_box_pairs(const std::vector<Box3>& boxes);

/// The overlapping pairs (i, j), i < j, for which keep(i, j) is true, sorted; keep is called
/// once per overlapping pair, from several threads at once, as the pair is found (no list of
/// every pair is made). `overlapping`, when given, receives how many pairs overlap.
std::vector<std::pair<int, int>> overlapping_box_pairs_where(const std::vector<Box3>& boxes,
                                                             const std::function<bool(int, int)>& keep,
                                                             std::size_t* overlapping = nullptr);

}  // namespace eipc::certify
