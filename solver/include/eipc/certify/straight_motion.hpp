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
// Before any bisection, the coplanarity cubic (both kinds) is bounded away from
// zero on [0, 1] through its Bernstein coefficients: no coplanarity, no contact.
// Two edges moving in one coordinate plane (the cubic zero throughout) are proven
// apart or touching at t = 0 by 2-D tests instead (src/certify/axis_plane_contact.hpp).
//
// Collision proof: the coplanarity cubic changes sign strictly over T while,
// throughout T, p is strictly inside the triangle
// (g_k(t) = ((v_{k+1}-v_k) x (p-v_k)) . n(t) > 0, k = 0..2), or the edges
// cross strictly inside each other (contact_conditions.hpp); or a point and a
// segment (p and an edge, an end point and the other edge) that keep one coordinate
// exactly equal in both frames meet inside that plane (src/certify/axis_plane_contact.hpp).
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

/// Vertices (p, a, b, c): point p against triangle abc. On `collision`,
/// `first_contact` (if given) receives an interval holding the first contact time.
MotionVerdict point_triangle_motion_test(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1,
                                 const MotionTestOptions& options = {},
                                 std::array<double, 2>* first_contact = nullptr);

/// Vertices (p0, p1, q0, q1): edge p0p1 against edge q0q1 (as above).
MotionVerdict edge_edge_motion_test(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1,
                            const MotionTestOptions& options = {},
                            std::array<double, 2>* first_contact = nullptr);

}  // namespace eipc::certify
