// IPC (2020) edge-edge mollifier: smoothly switches off the edge-edge barrier
// as the two edges become parallel, where the line-line distance is ill-defined.
#pragma once

#include "eipc/common.hpp"

namespace eipc {

/// eps_x = 1e-3 |ea0_rest - ea1_rest|^2 |eb0_rest - eb1_rest|^2
double edge_edge_mollifier_threshold(const Vec3& ea0_rest, const Vec3& ea1_rest, const Vec3& eb0_rest,
                                     const Vec3& eb1_rest);

/// m(c) = -c^2/eps_x^2 + 2c/eps_x for c < eps_x, else 1
double mollifier(double c, double eps_x);
/// m'(c) = -2c/eps_x^2 + 2/eps_x for c < eps_x, else 0
double mollifier_first_derivative(double c, double eps_x);
/// m''(c) = -2/eps_x^2 for c < eps_x, else 0
double mollifier_second_derivative(double c, double eps_x);

/// c = |(ea1 - ea0) x (eb1 - eb0)|^2
double edge_edge_cross_sq(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1);

/// m(c(x)) for the stacked x = (ea0, ea1, eb0, eb1).
double edge_edge_mollifier(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1, double eps_x);
/// grad m = m'(c) grad c
Vec<12> edge_edge_mollifier_gradient(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                                     double eps_x);
/// hess m = m''(c) grad c grad c^T + m'(c) hess c
Mat<12> edge_edge_mollifier_hessian(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                                    double eps_x);

}  // namespace eipc
