// Axis-aligned bounding boxes and a static bounding volume hierarchy over them,
// the spatial index of the contact broad phase.
#pragma once

#include <Eigen/Core>
#include <emmintrin.h>

#include <limits>
#include <vector>

namespace eipc {

/// Closed box [lo, hi]. Two boxes overlap iff lo_a <= hi_b and lo_b <= hi_a on every axis.
struct Aabb {
  Eigen::Array3d lo = Eigen::Array3d::Constant(std::numeric_limits<double>::infinity());
  Eigen::Array3d hi = Eigen::Array3d::Constant(-std::numeric_limits<double>::infinity());

  void extend(const Eigen::Array3d& p) { lo = lo.min(p); hi = hi.max(p); }
  void extend(const Aabb& b) { lo = lo.min(b.lo); hi = hi.max(b.hi); }
  void inflate(double r) { lo -= r; hi += r; }
  /// Without short-circuits: in the broad phase's loops the outcome is too
  /// irregular to predict, and a mispredicted branch costs more than the tests.
  /// Axes 0-1 as one SSE2 packet, axis 2 alone: the same six comparisons.
  bool overlaps(const Aabb& b) const {
    const __m128d xy = _mm_and_pd(_mm_cmple_pd(_mm_loadu_pd(lo.data()), _mm_loadu_pd(b.hi.data())),
                                  _mm_cmple_pd(_mm_loadu_pd(b.lo.data()), _mm_loadu_pd(hi.data())));
    const __m128d z = _mm_and_pd(_mm_cmple_sd(_mm_load_sd(&lo[2]), _mm_load_sd(&b.hi[2])),
                                 _mm_cmple_sd(_mm_load_sd(&b.lo[2]), _mm_load_sd(&hi[2])));
    return _mm_movemask_pd(_mm_and_pd(xy, _mm_unpacklo_pd(z, z))) == 3;
  }
};

/// Binary tree of boxes, built top-down by splitting at the median centroid
/// along the widest axis (deterministic), or refit to new boxes. Leaves hold up
/// to 8 boxes.
class AabbTree {
public:
  AabbTree() = default;
  explicit AabbTree(std::vector<Aabb> boxes);

  /// The same tree shape over new boxes, as many as before: the node boxes are
  /// recomputed bottom-up, in linear time. Queries stay exact; only their speed
  /// depends on how well the old shape suits the new boxes.
  void refit(std::vector<Aabb> boxes);

  /// Appends to `out` the index of every box in leaf `from_leaf` or a later
  /// one (leaf_begin) overlapping `query` (unsorted).
  void query(const Aabb& query, std::vector<int>& out, int from_leaf = 0) const;
  int size() const { return static_cast<int>(boxes_.size()); }
  const Aabb& box(int i) const { return boxes_[std::size_t(i)]; }

  /// A box holding every box (empty when there are none).
  Aabb bounds() const { return nodes_.empty() ? Aabb{} : nodes_[0].box; }

  /// Leaves hold boxes that lie close together: one query with a leaf's box
  /// (which holds all of them) serves all its members.
  int num_leaves() const { return static_cast<int>(leaves_.size()); }
  /// The box indices of leaf k, [leaf_begin(k), leaf_end(k)).
  const int* leaf_begin(int k) const { return order_.data() + nodes_[std::size_t(leaves_[std::size_t(k)])].begin; }
  const int* leaf_end(int k) const { return order_.data() + nodes_[std::size_t(leaves_[std::size_t(k)])].end; }
  const Aabb& leaf_box(int k) const { return nodes_[std::size_t(leaves_[std::size_t(k)])].box; }

private:
  struct Node {
    Aabb box;
    int left = -1, right = -1;  ///< children; -1 for a leaf
    int begin = 0, end = 0;     ///< its boxes' range in order_
  };
  /// Node of order_[begin, end), split at the median centre along the widest axis; its index.
  int split(int begin, int end, const std::vector<Eigen::Array3d>& centres);
  /// Every node's box from its boxes (leaves) or its children's, bottom-up.
  void fit_node_boxes();

  std::vector<Aabb> boxes_;
  std::vector<int> order_;
  std::vector<Node> nodes_;
  std::vector<int> leaves_;  ///< the leaf nodes, in order_ order
};

}  // namespace eipc
