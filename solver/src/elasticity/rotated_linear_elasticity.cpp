#include "eipc/elasticity/rotated_linear_elasticity.hpp"

#include "eipc/geometry/cross_matrix.hpp"

#include <Eigen/SVD>

namespace eipc {

/// Everything Phi and its derivatives need at one q.
struct RotatedLinearElasticity::Frame {
  Mat3 R;         ///< polar rotation of A
  Mat3 G_inv;     ///< (tr(S) I - S)^{-1}: d omega = G^{-1} sum_i p_i x (R^T dq_i), dR = R [omega]x
  Positions y;    ///< R^T (q_i - c)
  VecX d;         ///< y_i - (q0_i - c0), flattened
  VecX Kd;        ///< K d
};

RotatedLinearElasticity::RotatedLinearElasticity(const Positions& rest, MatX stiffness)
    : rest_centered_(rest.rowwise() - rest.colwise().mean()), stiffness_(std::move(stiffness)) {
  const Eigen::Index n = 3 * rest.rows();
  if (stiffness_.rows() != n || stiffness_.cols() != n)
    throw InputError("rotated linear elasticity: a " + std::to_string(stiffness_.rows()) + "x" +
                     std::to_string(stiffness_.cols()) + " stiffness for " + std::to_string(rest.rows()) +
                     " nodes (expected " + std::to_string(n) + "x" + std::to_string(n) + ")");
}

RotatedLinearElasticity::Frame RotatedLinearElasticity::frame(const Positions& q) const {
  const Positions centered = q.rowwise() - q.colwise().mean();
  const Mat3 A = centered.transpose() * rest_centered_;
  Eigen::JacobiSVD<Mat3> svd(A, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 U = svd.matrixU();
  Vec3 sigma = svd.singularValues();
  if ((U * svd.matrixV().transpose()).determinant() < 0.0) {  // reflection: the closest rotation flips the smallest
    U.col(2) *= -1.0;
    sigma[2] *= -1.0;
  }
  Frame f;
  f.R = U * svd.matrixV().transpose();
  const Mat3 S = svd.matrixV() * sigma.asDiagonal() * svd.matrixV().transpose();
  f.G_inv = (S.trace() * Mat3::Identity() - S).inverse();
  // Centred: K annihilates translations, so this changes no derivative, but a
  // large translation no longer cancels in d^T K d.
  f.y = centered * f.R;
  f.d = VecX(3 * q.rows());
  for (Eigen::Index i = 0; i < q.rows(); ++i) f.d.segment<3>(3 * i) = (f.y.row(i) - rest_centered_.row(i)).transpose();
  f.Kd = stiffness_ * f.d;
  return f;
}

double RotatedLinearElasticity::energy(const Positions& q) const {
  const Frame f = frame(q);
  return 0.5 * f.d.dot(f.Kd);
}

double RotatedLinearElasticity::energy_and_gradient(const Positions& q, VecX& gradient) const {
  return gradient_at(frame(q), gradient);
}

double RotatedLinearElasticity::gradient_at(const Frame& f, VecX& gradient) const {
  const Eigen::Index n = f.y.rows();
  // dPhi/dq_i = R (K d)_i + (d omega/dq_i)^T g,  g = dPhi/d omega = sum_i (K d)_i x y_i.
  Vec3 g = Vec3::Zero();
  for (Eigen::Index i = 0; i < n; ++i) g += f.Kd.segment<3>(3 * i).cross(f.y.row(i).transpose());
  const Vec3 Gg = f.G_inv * g;
  gradient.resize(3 * n);
  for (Eigen::Index i = 0; i < n; ++i)
    gradient.segment<3>(3 * i) = f.R * (f.Kd.segment<3>(3 * i) - rest_centered_.row(i).transpose().cross(Gg));
  return 0.5 * f.d.dot(f.Kd);
}

void RotatedLinearElasticity::gradient_and_hessian(const Positions& q, VecX& gradient, MatX& hessian) const {
  const Frame f = frame(q);
  gradient_at(f, gradient);
  // D = dd/dq = blockdiag(R^T) + Y Z, with Y (3n x 3) stacking [y_i]x and Z (3 x 3n)
  // the blocks G^{-1} [p_j]x R^T: a rank-3 change of a block rotation, so
  //   D^T K D = Rb K Rb^T + P Z + (P Z)^T + Z^T (Y^T K Y) Z,   P = Rb K Y,
  // costs O(n^2), not the O(n^3) of forming D.
  const Eigen::Index n = q.rows();
  MatX Y(3 * n, 3), Z(3, 3 * n);
  for (Eigen::Index i = 0; i < n; ++i) {
    Y.middleRows<3>(3 * i) = cross_matrix(f.y.row(i).transpose());
    Z.middleCols<3>(3 * i) = f.G_inv * cross_matrix(rest_centered_.row(i).transpose()) * f.R.transpose();
  }
  const MatX KY = stiffness_ * Y;
  MatX P(3 * n, 3);
  for (Eigen::Index i = 0; i < n; ++i) P.middleRows<3>(3 * i) = f.R * KY.middleRows<3>(3 * i);
  hessian.resize(3 * n, 3 * n);
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index i = 0; i < n; ++i)
      hessian.block<3, 3>(3 * i, 3 * j) = f.R * stiffness_.block<3, 3>(3 * i, 3 * j) * f.R.transpose();
  const MatX PZ = P * Z;
  hessian += PZ + PZ.transpose() + Z.transpose() * (Y.transpose() * KY) * Z;
  hessian = 0.5 * (hessian + hessian.transpose()).eval();
}

}  // namespace eipc
