// Closest points between primitives in plain double precision. The
// certifier uses them only to *choose* a separating direction; the proof of
// separation is done afterwards with interval arithmetic (straight_motion.hpp).
#pragma once

#include "eipc/common.hpp"

#include <Eigen/Geometry>

#include <utility>

namespace eipc::certify {

/// Point of the closed triangle abc nearest to p (Voronoi-region walk; a
/// degenerate triangle falls back to its three edges).
Vec3 closest_point_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c);

/// Nearest points (on p0p1, on q0q1) of two closed segments, minimising
/// |p0 + s (p1 - p0) - q0 - t (q1 - q0)| over s, t in [0, 1].
std::pair<Vec3, Vec3> closest_points_on_segments(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1);

}  // namespace eipc::certify
