// Closest-point coordinates of a primitive pair for a given distance type.
#pragma once

#include "eipc/distance/distance_type.hpp"

namespace eipc {

/// Barycentric weights (w0, w1, w2) of the point of triangle (t0,t1,t2) closest to p, for the
/// given type (P_T: projection onto the plane; P_Ei: clamped edge parameter; P_Ti: the vertex).
Vec3 point_triangle_closest_weights(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2,
                                    PointTriangleDistanceType type);

/// Parameters (s, t) of the closest points ea0 + s (ea1 - ea0) and eb0 + t (eb1 - eb0), for the
/// given type (EA_EB: the line-line closest points; point-edge types: the projection onto the
/// edge, clamped; point-point types: 0 or 1).
Eigen::Vector2d edge_edge_closest_parameters(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                                             EdgeEdgeDistanceType type);

}  // namespace eipc
