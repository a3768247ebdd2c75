// When do two straight-moving primitives touch? As a union of conjunctions of
// polynomial sign conditions in t (exact, rational coefficients), and the
// earliest such t. The conditions are the closed-set definitions of the
// published queries (docs/certify.md, "--continuous"): distance exactly 0.
//
// Point p in the closed triangle abc iff
//   p equals a corner, or lies on an edge (u, w] (collinear, strictly past u, not past w), or
//   f = ((b-a) x (c-a)) . (p-a) = 0 and g_k = ((v_{k+1}-v_k) x (p-v_k)) . n > 0 for k = 0..2
//   (strictly inside; g_k > 0 also rules out a degenerate triangle, n = 0).
// Closed segments p0p1 and q0q1 meet iff an end point of one equals or lies on the
// other, or they cross at interior points: coplanar and, with m = dp x dq,
//   s_j = (dp x (q_j-p0)) . m and r_i = (dq x (p_i-q0)) . m satisfy s_0 < 0 < s_1 and r_1 < 0 < r_0
//   (s_1 - s_0 = |m|^2 = r_0 - r_1, so these say "strictly on opposite sides", and m != 0).
#pragma once

#include "eipc/common.hpp"
#include "sign_conditions.hpp"

#include <array>
#include <optional>
#include <vector>

namespace eipc::certify {

/// Vertices (p, a, b, c) at t = 0 and t = 1.
std::vector<SignConditions> point_triangle_contact(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1);
/// Vertices (p0, p1, q0, q1) at t = 0 and t = 1.
std::vector<SignConditions> edge_edge_contact(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1);

/// [lo, hi] as doubles, rounded outward.
std::array<double, 2> outward(const Rational& lo, const Rational& hi);

/// Closed bracket [lo, hi] (doubles rounded outward) of the earliest t in [0, 1]
/// at which one of the alternatives holds, narrowed to about 2^-50; none if never.
std::optional<std::array<double, 2>> earliest_contact(const std::vector<SignConditions>& alternatives);

}  // namespace eipc::certify
