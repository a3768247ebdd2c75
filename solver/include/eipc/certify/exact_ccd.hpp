// Exact continuous collision decision for one primitive pair whose vertices
// move on straight lines x(t) = x0 + t (x1 - x0), t in [0, 1]: either proven
// to touch (distance exactly 0 at some t; touching, t = 0 or 1 and degenerate
// configurations count) with a bracket of the first contact time, or proven
// separated. Only non-finite input is `inconclusive`.
//
// Floating-point filters decide first (straight_motion.hpp: interval
// arithmetic, never wrong, sometimes undecided); what they leave is decided
// with exact rational arithmetic (contact_conditions.hpp: sign conditions on
// polynomials in t, Sturm root isolation with GMP rationals).
#pragma once

#include "eipc/certify/straight_motion.hpp"

#include <array>

namespace eipc::certify {

struct PairDecision {
  MotionVerdict verdict = MotionVerdict::inconclusive;
  double t_lo = 0.0, t_hi = 0.0;  ///< collision: the first contact time lies in [t_lo, t_hi]
  bool exact_path = false;        ///< the filters could not decide; exact arithmetic did
  double exact_seconds = 0.0;     ///< time spent in exact arithmetic (0 unless exact_path)
};

/// Budget of the floating-point filter before the exact path takes over.
inline constexpr MotionTestOptions exact_ccd_filter_budget{16, 64};
/// A collision bracket from the filter wider than this is narrowed by the exact path (to about 2^-50).
inline constexpr double exact_ccd_bracket_width = 1.0 / (1 << 20);

/// Vertices (p, a, b, c): point p against the closed triangle abc.
PairDecision decide_point_triangle(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1);
/// Vertices (p0, p1, q0, q1): closed segment p0p1 against q0q1.
PairDecision decide_edge_edge(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1);

}  // namespace eipc::certify
