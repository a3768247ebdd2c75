// Distances used by the CCD narrow phase. Self-contained (CCD does not depend on
// the barrier's distance module). Each function returns the true Euclidean
// (unsquared) distance up to floating-point rounding, erring LOW where the
// computation is ill-conditioned (sliver triangles, nearly parallel edges):
// CCD steps by distance, so an underestimate only costs extra iterations while
// an overestimate could step over a contact.
#pragma once

#include "eipc/common.hpp"

namespace eipc::ccd {

/// Distance from p to the segment [a, b]:
/// |p - (a + s (b - a))| with s = clamp(((p - a).(b - a)) / |b - a|^2, 0, 1).
double point_segment_distance(const Vec3& p, const Vec3& a, const Vec3& b);

/// Distance from p to the triangle (t0, t1, t2): the smaller of the three edge
/// distances and, when the projection of p onto the triangle's plane lies inside
/// the triangle (tested with a small tolerance, so borderline cases count as
/// inside), the plane distance |n.(p - t0)| / |n|, n = (t1 - t0) x (t2 - t0).
/// The plane distance never exceeds the true distance, so the tolerance is safe.
double point_triangle_distance(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2);

/// Distance between the segments [a0, a1] and [b0, b1]: the smaller of the four
/// endpoint-to-segment distances and, when the closest points of the two lines
/// lie inside both segments (with tolerance), the line-line distance
/// |(b0 - a0).(ea x eb)| / |ea x eb|. For nearly parallel segments
/// (|ea x eb| <= 1e-10 |ea||eb|) the endpoint minimum is lowered by
/// |ea x eb| / min(|ea|, |eb|), a bound on how much an interior minimum can undercut it.
double edge_edge_distance(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1);

}  // namespace eipc::ccd
