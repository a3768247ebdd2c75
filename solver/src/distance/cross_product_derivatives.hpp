// Private helpers: derivatives of cross products of linear functions of the
// stacked coordinates x (u = U x + const, v = V x + const).
#pragma once

#include "eipc/common.hpp"
#include "eipc/geometry/cross_matrix.hpp"

namespace eipc::detail {

template <int N> using Mat3N = Eigen::Matrix<double, 3, N>;

/// 3xN matrix selecting x_plus - x_minus from stacked 3-vectors (minus < 0: none).
template <int N> Mat3N<N> difference_selector(int plus, int minus) {
  Mat3N<N> s = Mat3N<N>::Zero();
  s.template block<3, 3>(0, 3 * plus) = Mat3::Identity();
  if (minus >= 0) s.template block<3, 3>(0, 3 * minus) -= Mat3::Identity();
  return s;
}

/// d(u x v)/dx = [u]_x V - [v]_x U
template <int N> Mat3N<N> cross_jacobian(const Vec3& u, const Vec3& v, const Mat3N<N>& U, const Mat3N<N>& V) {
  return cross_matrix(u) * V - cross_matrix(v) * U;
}

/// d^2 (w . (u x v)) / dx^2 for fixed w.  w.(u x v) = -u^T [w]_x v, so the Hessian is
/// -U^T [w]_x V - V^T [w]_x^T U = -U^T [w]_x V + V^T [w]_x U.
template <int N> Mat<N> cross_contracted_hessian(const Vec3& w, const Mat3N<N>& U, const Mat3N<N>& V) {
  const Mat3 W = cross_matrix(w);
  return -U.transpose() * W * V + V.transpose() * W * U;
}

/// f(a, n) = (a.n)^2 / (n.n) with a = A x + const and n = u x v: value, gradient, Hessian.
/// Partials (s = a.n, q = n.n):
///   f_a = 2 s n / q,  f_n = 2 s a / q - 2 s^2 n / q^2
///   f_aa = 2 n n^T / q,  f_an = 2 (n a^T + s I) / q - 4 s n n^T / q^2
///   f_nn = 2 a a^T / q - 4 s (a n^T + n a^T) / q^2 - 2 s^2 I / q^2 + 8 s^2 n n^T / q^3
/// Hessian = J^T [f_aa f_an; f_an^T f_nn] J + d^2(f_n . n)/dx^2,  J = [A; dn/dx].
/// The selectors A, U, V are constants of the caller (not copied: building
/// three 3xN matrices per call cost more than a value() evaluation).
template <int N> struct ProjectedSquare {
  Vec3 a, n, u, v;
  const Mat3N<N>& A;
  const Mat3N<N>& U;
  const Mat3N<N>& V;

  double value() const {
    const double s = a.dot(n);
    return s * s / n.squaredNorm();
  }
  Vec<N> gradient() const {
    const double s = a.dot(n), q = n.squaredNorm();
    const Vec3 fa = 2 * s / q * n;
    const Vec3 fn = 2 * s / q * a - 2 * s * s / (q * q) * n;
    return A.transpose() * fa + cross_jacobian<N>(u, v, U, V).transpose() * fn;
  }
  Mat<N> hessian() const {
    const double s = a.dot(n), q = n.squaredNorm();
    const Mat3 I = Mat3::Identity();
    Mat<6> h;
    h.template block<3, 3>(0, 0) = 2 / q * n * n.transpose();
    h.template block<3, 3>(0, 3) = 2 / q * (n * a.transpose() + s * I) - 4 * s / (q * q) * n * n.transpose();
    h.template block<3, 3>(3, 0) = h.template block<3, 3>(0, 3).transpose();
    h.template block<3, 3>(3, 3) = 2 / q * a * a.transpose() - 4 * s / (q * q) * (a * n.transpose() + n * a.transpose()) -
                                   2 * s * s / (q * q) * I + 8 * s * s / (q * q * q) * n * n.transpose();
    Eigen::Matrix<double, 6, N> J;
    J << A, cross_jacobian<N>(u, v, U, V);
    const Vec3 fn = 2 * s / q * a - 2 * s * s / (q * q) * n;
    return J.transpose() * h * J + cross_contracted_hessian<N>(fn, U, V);
  }
};

/// Copy the 3-blocks of a local gradient/Hessian into the stacked 12-vector at the given block slots.
template <int K> Vec<12> scatter_gradient(const Vec<3 * K>& g, const int (&slot)[K]) {
  Vec<12> out = Vec<12>::Zero();
  for (int i = 0; i < K; ++i) out.template segment<3>(3 * slot[i]) = g.template segment<3>(3 * i);
  return out;
}
template <int K> Mat<12> scatter_hessian(const Mat<3 * K>& h, const int (&slot)[K]) {
  Mat<12> out = Mat<12>::Zero();
  for (int i = 0; i < K; ++i)
    for (int j = 0; j < K; ++j)
      out.template block<3, 3>(3 * slot[i], 3 * slot[j]) = h.template block<3, 3>(3 * i, 3 * j);
  return out;
}

}  // namespace eipc::detail
