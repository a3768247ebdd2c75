// Exact intersection check of one stored configuration (one frame):
// degenerate triangles, vertices on/below the ground, intersecting triangle
// pairs (different bodies, or non-adjacent within a body), and bodies wholly
// inside other bodies.
#pragma once

#include "eipc/common.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace eipc::certify {

/// One body at one instant (not owning).
struct BodyState {
  const Positions* x = nullptr;  ///< vertex positions
  const Tris* faces = nullptr;   ///< surface triangles (indices into x)
  bool closed = true;            ///< surface is closed: other bodies are tested for being inside it
};

enum class ViolationKind {
  degenerate_triangle,    ///< body_a, index_a = triangle (exactly collinear corners)
  ground,                 ///< body_a, index_a = vertex with z <= ground height
  triangle_pair,          ///< body_a/index_a triangle meets body_b/index_b triangle
  containment,            ///< vertex index_a of body_a is inside or on the closed surface of body_b
  containment_undecided,  ///< as above, but the exact ray parity test found only degenerate rays
};

struct Violation {
  ViolationKind kind = ViolationKind::triangle_pair;
  int body_a = -1, index_a = -1;
  int body_b = -1, index_b = -1;
};

struct FrameCheck {
  std::size_t degenerate = 0, ground = 0, triangle_pairs = 0, containment = 0;
  std::size_t candidate_pairs = 0;    ///< triangle pairs whose closed boxes overlap
  double pair_seconds = 0;            ///< wall time finding them and testing each exactly (one pass)
  std::vector<Violation> examples;    ///< the first violations in the fixed order below
  std::vector<Violation> body_hits;   ///< every triangle-pair and containment violation (for penetration.hpp)
  std::size_t total() const { return degenerate + ground + triangle_pairs + containment; }
  bool ok() const { return total() == 0; }
};

/// Checks one configuration. Violations are ordered: degenerate triangles,
/// ground vertices, triangle pairs (by body then triangle index of the first,
/// then of the second), containment (by body pair); `examples` keeps the
/// first `max_examples`. Deterministic for any thread count.
FrameCheck check_frame(const std::vector<BodyState>& bodies, std::optional<double> ground_height,
                       int max_examples = 10);

}  // namespace eipc::certify
