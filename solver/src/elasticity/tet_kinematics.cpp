#include "eipc/elasticity/tet_kinematics.hpp"

#include "eipc/util/small_product.hpp"

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
  return times_3x3<3>(shape_matrix(x, tets, t), Dm_inv);
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
  const Eigen::Matrix<double, 3, 4> G = times_3x3<4>(P, vertex_weights(Dm_inv).transpose());  // G(i, a)
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
    const Eigen::Matrix<double, 3, 4> Gk = times_3x3<4>(M[k], B.transpose());
    G.col(k) = Eigen::Map<const Vec<12>>(Gk.data());
    Gw.col(k) = w[k] * G.col(k);
  }
  // H = Gw G^T + a (gram kron I3), only its lower triangle formed and then
  // mirrored: exactly symmetric for the sparse solver, at 78 of the 144 dot
  // products. Each sum runs over k in the order of Eigen's lazy product
  // (((k0 + k1) + k2) + k3), so H is the same bit for bit as Gw.lazyProduct(G^T).
  // Columns c, c + 1 and row pairs r, r + 1 (SSE2 packets) from r = c down:
  // the one entry above the diagonal this forms, (c, c + 1), is overwritten by
  // the mirror.
  Mat<12> H;
  for (int c = 0; c < 12; c += 2) {
    const Eigen::Vector4d g0 = G.row(c).transpose(), g1 = G.row(c + 1).transpose();
    for (int r = c; r < 12; r += 2) {
      const Eigen::Vector2d w0 = Gw.col(0).segment<2>(r), w1 = Gw.col(1).segment<2>(r),
                            w2 = Gw.col(2).segment<2>(r), w3 = Gw.col(3).segment<2>(r);
      H.col(c).segment<2>(r) = w0 * g0[0] + w1 * g0[1] + w2 * g0[2] + w3 * g0[3];
      H.col(c + 1).segment<2>(r) = w0 * g1[0] + w1 * g1[1] + w2 * g1[2] + w3 * g1[3];
    }
  }
  for (int q = 0; q < 4; ++q)
    for (int p = q; p < 4; ++p) H.block<3, 3>(3 * p, 3 * q).diagonal().array() += a * gram(p, q);
  // The mirror in 2x2 blocks (a scalar copy per entry cost 6 instructions).
  for (int c = 0; c < 12; c += 2) {
    H(c, c + 1) = H(c + 1, c);
    for (int r = c + 2; r < 12; r += 2) H.block<2, 2>(c, r) = H.block<2, 2>(r, c).transpose();
  }
  return H;
}

Vec<12> tet_coordinates(const Positions& x, const Tets& tets, int t) {
  Vec<12> q;
  for (int a = 0; a < 4; ++a) q.segment<3>(3 * a) = x.row(tets(t, a)).transpose();
  return q;
}

}  // namespace eipc
