// Squared distance between the infinite lines through two edges (not parallel).
#pragma once

#include "eipc/common.hpp"

namespace eipc {

/// d^2 = ((ea0 - eb0) . n)^2 / |n|^2,  n = (ea1 - ea0) x (eb1 - eb0)
double line_line_distance_sq(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1);
/// Gradient w.r.t. (ea0, ea1, eb0, eb1).
Vec<12> line_line_distance_sq_gradient(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1);
/// Hessian w.r.t. (ea0, ea1, eb0, eb1).
Mat<12> line_line_distance_sq_hessian(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1);

}  // namespace eipc
