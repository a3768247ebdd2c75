#include "eipc/distance/point_line.hpp"

#include <Eigen/Geometry>

#include "../distance/cross_product_derivatives.hpp"

namespace eipc {
namespace {
using detail::Mat3N;
// x = (p, e0, e1); u = e0 - p, v = e1 - p, c = u x v, e = e1 - e0.
const Mat3N<9> kPointLineU = detail::difference_selector<9>(1, 0);
const Mat3N<9> kPointLineV = detail::difference_selector<9>(2, 0);
const Mat3N<9> kPointLineE = detail::difference_selector<9>(2, 1);
}  // namespace

double point_line_distance_sq(const Vec3& p, const Vec3& e0, const Vec3& e1) {
  return (e0 - p).cross(e1 - p).squaredNorm() / (e1 - e0).squaredNorm();
}

/// f(c, e) = (c.c)/(e.e):  f_c = 2c/q,  f_e = -2 (c.c) e / q^2  (q = e.e)
Vec<9> point_line_distance_sq_gradient(const Vec3& p, const Vec3& e0, const Vec3& e1) {
  const Vec3 u = e0 - p, v = e1 - p, e = e1 - e0, c = u.cross(v);
  const double q = e.squaredNorm(), cc = c.squaredNorm();
  return detail::cross_jacobian<9>(u, v, kPointLineU, kPointLineV).transpose() * (2 / q * c) +
         kPointLineE.transpose() * (-2 * cc / (q * q) * e);
}

/// f_cc = 2I/q,  f_ce = -4 c e^T / q^2,  f_ee = -2 (c.c) I / q^2 + 8 (c.c) e e^T / q^3;
/// H = J^T [f_cc f_ce; f_ce^T f_ee] J + d^2(f_c . c)/dx^2,  J = [dc/dx; E].
Mat<9> point_line_distance_sq_hessian(const Vec3& p, const Vec3& e0, const Vec3& e1) {
  const Vec3 u = e0 - p, v = e1 - p, e = e1 - e0, c = u.cross(v);
  const double q = e.squaredNorm(), cc = c.squaredNorm();
  Mat<6> h;
  h.block<3, 3>(0, 0) = 2 / q * Mat3::Identity();
  h.block<3, 3>(0, 3) = -4 / (q * q) * c * e.transpose();
  h.block<3, 3>(3, 0) = h.block<3, 3>(0, 3).transpose();
  h.block<3, 3>(3, 3) = -2 * cc / (q * q) * Mat3::Identity() + 8 * cc / (q * q * q) * e * e.transpose();
  Eigen::Matrix<double, 6, 9> J;
  J << detail::cross_jacobian<9>(u, v, kPointLineU, kPointLineV), kPointLineE;
  return J.transpose() * h * J + detail::cross_contracted_hessian<9>(2 / q * c, kPointLineU, kPointLineV);
}

}  // namespace eipc
