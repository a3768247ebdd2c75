// Conservative continuous check of the straight-line motion between two
// stored frames (`eipc certify --continuous`): every vertex moves on
// x(t) = x_from + t (x_to - x_from), t in [0, 1].
//
// Broad phase: closed boxes of each triangle swept over both frames. Triangle
// pairs sharing no vertex are first tried as wholes (triangle_triangle_motion_test);
// otherwise their point-triangle and edge-edge pairs (minus the ones incident
// through a shared vertex) are swept one by one. Ground: a vertex moving on a
// line stays above z = h iff both ends are above it (exact).
#pragma once

#include "eipc/certify/frame_check.hpp"
#include "eipc/certify/straight_motion.hpp"

#include <array>
#include <optional>

namespace eipc::certify {

enum class MotionStatus { certified, collision, inconclusive };
enum class MotionPrimitive { point_triangle, edge_edge, point_ground };

/// A primitive pair the check could not certify. Vertex indices are local to their body.
struct MotionPair {
  MotionPrimitive kind = MotionPrimitive::point_triangle;
  MotionVerdict result = MotionVerdict::inconclusive;
  int body_a = -1;
  std::array<int, 2> a{-1, -1};      ///< point: {v, -1}; edge: {v0, v1}
  int body_b = -1;                   ///< -1 for the ground
  std::array<int, 3> b{-1, -1, -1};  ///< triangle corners or edge {v0, v1, -1}
  int triangle_b = -1;               ///< point_triangle: triangle index in body_b
};

struct MotionCheck {
  std::size_t triangle_candidates = 0;   ///< triangle pairs with overlapping swept boxes
  std::size_t primitive_candidates = 0;  ///< primitive pairs swept individually
  std::size_t collisions = 0, inconclusive = 0;
  std::vector<MotionPair> examples;      ///< first unresolved pairs (ground, then point-triangle, then edge-edge)
  MotionStatus status() const {
    return collisions ? MotionStatus::collision : inconclusive ? MotionStatus::inconclusive : MotionStatus::certified;
  }
};

/// `from` and `to` must hold the same bodies with the same faces and vertex counts.
MotionCheck check_motion(const std::vector<BodyState>& from, const std::vector<BodyState>& to,
                         std::optional<double> ground_height, const MotionTestOptions& options = {},
                         int max_examples = 10);

}  // namespace eipc::certify
