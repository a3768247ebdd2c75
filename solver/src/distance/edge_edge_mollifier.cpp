#include "eipc/distance/edge_edge_mollifier.hpp"

#include <Eigen/Geometry>

#include "../distance/cross_product_derivatives.hpp"

namespace eipc {

double edge_edge_mollifier_threshold(const Vec3& ea0_rest, const Vec3& ea1_rest, const Vec3& eb0_rest,
                                     const Vec3& eb1_rest) {
  return 1e-3 * (ea1_rest - ea0_rest).squaredNorm() * (eb1_rest - eb0_rest).squaredNorm();
}

double mollifier(double c, double eps_x) {
  if (c >= eps_x) return 1.0;
  const double r = c / eps_x;
  return (2 - r) * r;
}
double mollifier_first_derivative(double c, double eps_x) {
  return c < eps_x ? 2 / eps_x * (1 - c / eps_x) : 0.0;
}
double mollifier_second_derivative(double c, double eps_x) { return c < eps_x ? -2 / (eps_x * eps_x) : 0.0; }

double edge_edge_cross_sq(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1) {
  return (ea1 - ea0).cross(eb1 - eb0).squaredNorm();
}

namespace {
const detail::Mat3N<12> kMollifierU = detail::difference_selector<12>(1, 0);
const detail::Mat3N<12> kMollifierV = detail::difference_selector<12>(3, 2);
}  // namespace

double edge_edge_mollifier(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1, double eps_x) {
  return mollifier(edge_edge_cross_sq(ea0, ea1, eb0, eb1), eps_x);
}

/// c = n.n, n = u x v:  grad c = 2 (dn/dx)^T n
Vec<12> edge_edge_mollifier_gradient(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                                     double eps_x) {
  const Vec3 u = ea1 - ea0, v = eb1 - eb0, n = u.cross(v);
  const double c = n.squaredNorm();
  if (c >= eps_x) return Vec<12>::Zero();
  return mollifier_first_derivative(c, eps_x) * 2 * detail::cross_jacobian<12>(u, v, kMollifierU, kMollifierV).transpose() * n;
}

/// hess c = 2 (dn/dx)^T (dn/dx) + d^2(2n . n)/dx^2 (n held fixed in the contraction)
Mat<12> edge_edge_mollifier_hessian(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                                    double eps_x) {
  const Vec3 u = ea1 - ea0, v = eb1 - eb0, n = u.cross(v);
  const double c = n.squaredNorm();
  if (c >= eps_x) return Mat<12>::Zero();
  const detail::Mat3N<12> N = detail::cross_jacobian<12>(u, v, kMollifierU, kMollifierV);
  const Vec<12> grad_c = 2 * N.transpose() * n;
  const Mat<12> hess_c = 2 * N.transpose() * N + detail::cross_contracted_hessian<12>(2 * n, kMollifierU, kMollifierV);
  return mollifier_second_derivative(c, eps_x) * grad_c * grad_c.transpose() +
         mollifier_first_derivative(c, eps_x) * hess_c;
}

}  // namespace eipc
