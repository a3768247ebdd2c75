// Squared distance between two points.
#pragma once

#include "eipc/common.hpp"

namespace eipc {

/// d^2 = |p - q|^2
double point_point_distance_sq(const Vec3& p, const Vec3& q);
/// Gradient w.r.t. (p, q): [2(p-q); -2(p-q)].
Vec<6> point_point_distance_sq_gradient(const Vec3& p, const Vec3& q);
/// Hessian w.r.t. (p, q): 2 [I -I; -I I].
Mat<6> point_point_distance_sq_hessian(const Vec3& p, const Vec3& q);

}  // namespace eipc
