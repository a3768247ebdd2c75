// Which pieces of two primitives are closest: selects the formula used for the
// squared distance (point-point, point-line, point-plane or line-line).
#pragma once

#include "eipc/common.hpp"

namespace eipc {

/// Closest feature of triangle (t0,t1,t2) to point p.
/// P_Ti: vertex ti; P_E0: edge t0-t1, P_E1: edge t1-t2, P_E2: edge t2-t0; P_T: interior.
enum class PointTriangleDistanceType { P_T0, P_T1, P_T2, P_E0, P_E1, P_E2, P_T };

/// Closest features of edges A = (ea0,ea1) and B = (eb0,eb1).
/// EAi_EBj: endpoints; EA_EBj: interior of A to endpoint j of B; EAi_EB: endpoint i of A to
/// interior of B; EA_EB: interiors (line-line).
enum class EdgeEdgeDistanceType { EA0_EB0, EA0_EB1, EA1_EB0, EA1_EB1, EA_EB0, EA_EB1, EA0_EB, EA1_EB, EA_EB };

/// Closest feature of the triangle. If the projection of p onto the triangle's plane falls
/// inside the triangle the answer is P_T, otherwise the closest of the three clamped edge
/// distances decides (edge interior or one of its endpoints). Degenerate (zero-area)
/// triangles never give P_T.
PointTriangleDistanceType point_triangle_distance_type(const Vec3& p, const Vec3& t0, const Vec3& t1,
                                                       const Vec3& t2);

/// Closest features of two segments. EA_EB when the closest points of the two lines lie in
/// both open segments and the edges are not parallel (|ea x eb|^2 > 1e-20 |ea|^2 |eb|^2);
/// otherwise the minimum over the four endpoint-to-segment distances (the segment-segment
/// distance is a convex quadratic on [0,1]^2, so its minimum is then on the boundary).
/// Parallel edges therefore always get a point-edge or point-point type.
EdgeEdgeDistanceType edge_edge_distance_type(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0,
                                             const Vec3& eb1);

/// Parameter of the point of segment (e0,e1) closest to p, clamped to [0,1] (0 for a zero-length edge).
double point_segment_parameter(const Vec3& p, const Vec3& e0, const Vec3& e1);

}  // namespace eipc
