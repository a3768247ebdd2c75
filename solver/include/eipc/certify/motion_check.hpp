// Exact continuous check of the straight-line motion between two stored
// frames (`eipc certify --continuous`): every vertex moves on
// x(t) = x_from + t (x_to - x_from), t in [0, 1].
//
// Broad phase at the primitive level (the simulator's find_candidates, TBB,
// with no inflation): closed boxes of every surface vertex, edge and face swept
// over both frames; vertex-face and edge-edge pairs whose boxes overlap (pairs
// joined by a shared vertex of one body excepted). Each is
// decided exactly (exact_ccd.hpp): collision, with a bracket of its first contact
// time, or separated. Ground: a vertex moving on a line stays above z = h iff
// both ends are above it (exact).
#pragma once

#include "eipc/certify/frame_check.hpp"
#include "eipc/certify/straight_motion.hpp"

#include <array>
#include <optional>

namespace eipc::certify {

enum class MotionStatus { certified, collision, inconclusive };
enum class MotionPrimitive { point_triangle, edge_edge, point_ground };

/// A primitive pair that is not proven separated. Vertex indices are local to their body.
struct MotionPair {
  MotionPrimitive kind = MotionPrimitive::point_triangle;
  MotionVerdict result = MotionVerdict::inconclusive;
  int body_a = -1;
  std::array<int, 2> a{-1, -1};      ///< point: {v, -1}; edge: {v0, v1}
  int body_b = -1;                   ///< -1 for the ground
  std::array<int, 3> b{-1, -1, -1};  ///< triangle corners or edge {v0, v1, -1}
  int triangle_b = -1;               ///< point_triangle: triangle index in body_b
  double t_lo = 0.0, t_hi = 0.0;     ///< collision: the first contact lies in [t_lo, t_hi] (t in [0, 1])
};

struct MotionCheck {
  std::size_t vertex_face_candidates = 0;  ///< vertex-face pairs with overlapping swept boxes
  std::size_t edge_edge_candidates = 0;    ///< edge-edge pairs with overlapping swept boxes
  std::size_t exact_pairs = 0;             ///< pairs the floating-point filters left to exact arithmetic
  std::size_t collisions = 0, inconclusive = 0;
  double broad_seconds = 0, narrow_seconds = 0;  ///< wall time of the two phases
  double exact_seconds = 0;                      ///< thread time spent in exact arithmetic
  std::vector<MotionPair> examples;  ///< the max_examples earliest-contact unresolved pairs
  std::vector<MotionPair> colliding;  ///< every colliding pair, in primitive order (only when asked)
  MotionStatus status() const {
    return collisions ? MotionStatus::collision : inconclusive ? MotionStatus::inconclusive : MotionStatus::certified;
  }
};

/// `from` and `to` must hold the same bodies with the same faces and vertex counts.
/// With `keep_all`, every colliding pair is listed in `colliding`.
MotionCheck check_motion(const std::vector<BodyState>& from, const std::vector<BodyState>& to,
                         std::optional<double> ground_height, int max_examples = 10, bool keep_all = false);

}  // namespace eipc::certify
