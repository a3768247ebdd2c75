// How deep an intersecting frame intersects, per body pair (docs/certify.md,
// "Depth"). Runs only on frames check_frame failed; the decisions (inside or
// not) are exact, the depths are measured in double precision.
#pragma once

#include "eipc/certify/frame_check.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace eipc::certify {

/// body_b of a pair with the ground plane.
inline constexpr int kGround = -1;

/// A vertex and how deep it is in something else.
struct VertexDepth {
  int body = -1, vertex = -1;  ///< the penetrating vertex (local index of its body)
  int into = -1;               ///< body it is inside (kGround: below the ground; == body: self-crossing)
  int triangle = -1;           ///< self-crossing only: the triangle of `into` it is behind
  double depth = 0.0;          ///< [length units of the input] >= 0
};

/// One intersecting body pair of one frame. body_a <= body_b, except body_b == kGround;
/// body_a == body_b is a self-intersection.
struct PairPenetration {
  int body_a = -1, body_b = -1;
  std::size_t triangle_pairs = 0;  ///< intersecting triangle pairs between them
  std::size_t containment = 0;     ///< check_frame's whole-body containment hits (0..2)
  /// Vertices of a inside or on the closed surface of b (below or on the ground for
  /// kGround) and of b inside a; nullopt where not defined (container open, self pair).
  std::optional<std::size_t> a_in_b, b_in_a;
  std::size_t undecided = 0;          ///< vertices whose exact ray parity found only degenerate rays
  std::optional<VertexDepth> deepest;  ///< none when no vertex is inside (surfaces cross only through edges)
  double depth() const { return deepest ? deepest->depth : 0.0; }
};

/// Measures every body pair that `check` (the result of check_frame on the same
/// bodies) found intersecting, plus every body on or below the ground. Sorted by
/// (body_a, body_b) with the ground last. Needs check.body_hits.
std::vector<PairPenetration> measure_penetration(const std::vector<BodyState>& bodies, const FrameCheck& check,
                                                 std::optional<double> ground_height);

}  // namespace eipc::certify
