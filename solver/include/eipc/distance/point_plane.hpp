// Squared distance from a point to the plane through a triangle.
#pragma once

#include "eipc/common.hpp"

namespace eipc {

/// d^2 = ((p - t0) . n)^2 / |n|^2,  n = (t1 - t0) x (t2 - t0)
double point_plane_distance_sq(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2);
/// Gradient w.r.t. (p, t0, t1, t2).
Vec<12> point_plane_distance_sq_gradient(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2);
/// Hessian w.r.t. (p, t0, t1, t2).
Mat<12> point_plane_distance_sq_hessian(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2);

}  // namespace eipc
