// Squared distance from a point to the infinite line through an edge.
#pragma once

#include "eipc/common.hpp"

namespace eipc {

/// d^2 = |(e0 - p) x (e1 - p)|^2 / |e1 - e0|^2
double point_line_distance_sq(const Vec3& p, const Vec3& e0, const Vec3& e1);
/// Gradient w.r.t. (p, e0, e1).
Vec<9> point_line_distance_sq_gradient(const Vec3& p, const Vec3& e0, const Vec3& e1);
/// Hessian w.r.t. (p, e0, e1).
Mat<9> point_line_distance_sq_hessian(const Vec3& p, const Vec3& e0, const Vec3& e1);

}  // namespace eipc
