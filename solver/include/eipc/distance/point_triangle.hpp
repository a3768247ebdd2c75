// Squared distance between a point and a triangle, by closest-feature type.
#pragma once

#include "eipc/distance/distance_type.hpp"

namespace eipc {

/// d^2 for the given type: point-point (P_Ti), point-line (P_Ei) or point-plane (P_T).
double point_triangle_distance_sq(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2,
                                  PointTriangleDistanceType type);
/// d^2 with the type chosen by point_triangle_distance_type.
double point_triangle_distance_sq(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2);
/// Gradient w.r.t. stacked (p, t0, t1, t2).
Vec<12> point_triangle_distance_sq_gradient(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2,
                                            PointTriangleDistanceType type);
/// Hessian w.r.t. stacked (p, t0, t1, t2).
Mat<12> point_triangle_distance_sq_hessian(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2,
                                           PointTriangleDistanceType type);

}  // namespace eipc
