// Closed-box broad phase with CGAL::box_self_intersection_d (segment-tree
// based). The callback order is implementation-defined, so pairs are sorted.
#include "eipc/certify/box_overlap.hpp"

#include <CGAL/Bbox_3.h>
#include <CGAL/box_intersection_d.h>

#include <algorithm>

namespace eipc::certify {
namespace {

using BaseBox = CGAL::Box_intersection_d::Box_d<double, 3, CGAL::Box_intersection_d::ID_NONE>;

/// A box whose id is our index (CGAL's own id policies are not usable for self intersection).
struct IndexedBox : BaseBox {
  using ID = std::size_t;
  IndexedBox(const Box3& b, int i)
      : BaseBox(CGAL::Bbox_3(b.lo.x(), b.lo.y(), b.lo.z(), b.hi.x(), b.hi.y(), b.hi.z())), index(i) {}
  ID id() const { return static_cast<ID>(index); }
  int index;
};

}  // namespace

std::vector<std::pair<int, int>> overlapping_box_pairs(const std::vector<Box3>& boxes) {
  std::vector<IndexedBox> cgal_boxes;
  cgal_boxes.reserve(boxes.size());
  for (std::size_t i = 0; i < boxes.size(); ++i)
    if ((boxes[i].lo.array() <= boxes[i].hi.array()).all()) cgal_boxes.emplace_back(boxes[i], static_cast<int>(i));
  std::vector<std::pair<int, int>> pairs;
  CGAL::box_self_intersection_d(
      cgal_boxes.begin(), cgal_boxes.end(),
      [&](const IndexedBox& a, const IndexedBox& b) {
        pairs.emplace_back(std::min(a.index, b.index), std::max(a.index, b.index));
      },
      std::ptrdiff_t(10), CGAL::Box_intersection_d::CLOSED);
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

}  // namespace eipc::certify
