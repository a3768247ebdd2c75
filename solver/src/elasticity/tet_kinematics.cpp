#include "eipc/elasticity/tet_kinematics.hpp"

#include <Eigen/Geometry>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <string>

namespace eipc {

double signed_tet_volume(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3) {
  return (x1 - x0).dot((x2 - x0).cross(x3 - x0)) / 6.0;
}

VecX tet_volumes(const Positions& x, const Tets& tets) {
  VecX v(tets.rows());
  for (Eigen::Index t = 0; t < tets.rows(); ++t)
    v[t] = std::abs(signed_tet_volume(x.row(tets(t, 0)).transpose(), x.row(tets(t, 1)).transpose(),
                                      x.row(tets(t, 2)).transpose(), x.row(tets(t, 3)).transpose()));
  return v;
}

Mat3 shape_matrix(const Positions& x, const Tets& tets, int t) {
  Mat3 D;
  const Vec3 x0 = x.row(tets(t, 0)).transpose();
  for (int k = 0; k < 3; ++k) D.col(k) = x.row(tets(t, k + 1)).transpose() - x0;
  return D;
}

Mat3 rest_shape_inverse(const Positions& rest, const Tets& tets, int t) {
  const Mat3 Dm = shape_matrix(rest, tets, t);
  double longest = 0.0;
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b)
      longest = std::max(longest, (rest.row(tets(t, a)) - rest.row(tets(t, b))).norm());
  const double det = Dm.determinant();
  if (!(std::abs(det) > 1e-12 * longest * longest * longest))
    throw InputError("tet " + std::to_string(t) + " is degenerate at rest (volume " +
                     std::to_string(det / 6.0) + ")");
  return Dm.inverse();
}

Mat3 deformation_gradient(const Positions& x, const Tets& tets, int t, const Mat3& Dm_inv) {
  return shape_matrix(x, tets, t) * Dm_inv;
}

TetJacobian deformation_gradient_jacobian(const Mat3& Dm_inv) {
  TetJacobian J = TetJacobian::Zero();
  for (int j = 0; j < 3; ++j) {
    const double b0 = -Dm_inv.col(j).sum();
    for (int i = 0; i < 3; ++i) {
      J(i + 3 * j, i) = b0;
      for (int a = 1; a < 4; ++a) J(i + 3 * j, 3 * a + i) = Dm_inv(a - 1, j);
    }
  }
  return J;
}

namespace {
/// B(a, j) = dF_ij/dx_{a,i} (rows: the 4 vertices).
Eigen::Matrix<double, 4, 3> vertex_weights(const Mat3& Dm_inv) {
  Eigen::Matrix<double, 4, 3> B;
  B.row(0) = -Dm_inv.colwise().sum();
  B.bottomRows<3>() = Dm_inv;
  return B;
}
}  // namespace

Vec<12> pull_back_stress(const Mat3& P, const Mat3& Dm_inv) {
  const Eigen::Matrix<double, 3, 4> G = P * vertex_weights(Dm_inv).transpose();  // G(i, a)
  return Eigen::Map<const Vec<12>>(G.data());
}

Mat<12> pull_back_stress_derivative(const Mat<9>& A, const Mat3& Dm_inv) {
  const Eigen::Matrix<double, 4, 3> B = vertex_weights(Dm_inv);
  // T(r, 3b+k) = sum_l B(b, l) A(r, k+3l): A dFdx, 9 x 12.
  Eigen::Matrix<double, 9, 12> T;
  for (int b = 0; b < 4; ++b)
    for (int k = 0; k < 3; ++k)
      T.col(3 * b + k) = B(b, 0) * A.col(k) + B(b, 1) * A.col(k + 3) + B(b, 2) * A.col(k + 6);
  // H(3a+i, c) = sum_j B(a, j) T(i+3j, c).
  Mat<12> H;
  for (int a = 0; a < 4; ++a)
    H.middleRows<3>(3 * a) = B(a, 0) * T.topRows<3>() + B(a, 1) * T.middleRows<3>(3) + B(a, 2) * T.bottomRows<3>();
  return H;
}

Mat<12> pull_back_identity_plus_rank4(double a, const std::array<Mat3, 4>& M, const std::array<double, 4>& w,
                                      const Mat3& Dm_inv) {
  const Eigen::Matrix<double, 4, 3> B = vertex_weights(Dm_inv);
  const Eigen::Matrix4d gram = B * B.transpose();
  // Column k of G is vec(M_k B^T) = dF/dx^T vec(M_k); Gw scales it by w_k.
  Eigen::Matrix<double, 12, 4> G, Gw;
  for (int k = 0; k < 4; ++k) {
    const Eigen::Matrix<double, 3, 4> Gk = M[k] * B.transpose();
    G.col(k) = Eigen::Map<const Vec<12>>(Gk.data());
    Gw.col(k) = w[k] * G.col(k);
  }
  Mat<12> H = Gw.lazyProduct(G.transpose());
  for (int p = 0; p < 4; ++p)
    for (int q = 0; q < 4; ++q) H.block<3, 3>(3 * p, 3 * q).diagonal().array() += a * gram(p, q);
  // The lower triangle mirrored: exactly symmetric for the sparse solver.
  H.triangularView<Eigen::StrictlyUpper>() = H.transpose();
  return H;
}

Vec<12> tet_coordinates(const Positions& x, const Tets& tets, int t) {
  Vec<12> q;
  for (int a = 0; a < 4; ++a) q.segment<3>(3 * a) = x.row(tets(t, a)).transpose();
  return q;
}

}  // namespace eipc
