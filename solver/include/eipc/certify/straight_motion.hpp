// Conservative continuous test of two primitives whose vertices move on
// straight lines x(t) = x0 + t (x1 - x0), t in [0, 1].
//
// Separation proof on a time interval T: a fixed direction n (any vector)
// with  max_{i in A} n.x_i(T) < min_{j in B} n.x_j(T)  evaluated with outward
// rounded interval arithmetic (CGAL::Interval_nt). Convex hulls separated by
// a plane for all t in T => the primitives never touch on T. Directions are
// taken from the closest points at the middle of T (plus face normal / edge
// cross product); T is bisected when no direction works.
//
// Collision proof (point-triangle only): the coplanarity cubic
// f(t) = ((b-a) x (c-a)) . (p-a) changes sign strictly over T while p is
// strictly inside the triangle for all t in T:
// g_k(t) = ((v_{k+1}-v_k) x (p-v_k)) . n(t) > 0, k = 0..2.
//
// Anything else that reaches the depth or node budget is `inconclusive`:
// never a false `separated`.
#pragma once

#include "eipc/common.hpp"

#include <array>

namespace eipc::certify {

enum class MotionVerdict { separated, collision, inconclusive };

struct MotionTestOptions {
  int max_depth = 40;     ///< bisection levels of [0, 1]
  int max_nodes = 4000;   ///< time intervals examined per primitive pair
};

/// Vertices (p, a, b, c): point p against triangle abc.
MotionVerdict point_triangle_motion_test(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1,
                                 const MotionTestOptions& options = {});

/// Vertices (p0, p1, q0, q1): edge p0p1 against edge q0q1.
MotionVerdict edge_edge_motion_test(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1,
                            const MotionTestOptions& options = {});

/// Vertices (a0, a1, a2, b0, b1, b2): two whole triangles. Only proves
/// separation (or returns inconclusive); a cheap filter before the primitive pairs.
MotionVerdict triangle_triangle_motion_test(const std::array<Vec3, 6>& x0, const std::array<Vec3, 6>& x1,
                                    const MotionTestOptions& options = {});

}  // namespace eipc::certify
