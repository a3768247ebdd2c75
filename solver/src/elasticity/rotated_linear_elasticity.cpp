#include "eipc/elasticity/rotated_linear_elasticity.hpp"

#include "eipc/geometry/cross_matrix.hpp"

#include <Eigen/SVD>

namespace eipc {

/// Everything one part's Phi and its derivatives need at one q.
struct RotatedLinearElasticity::Frame {
  Mat3 R;         ///< polar rotation of A
  Mat3 G_inv;     ///< (tr(S) I - S)^{-1}: d omega = G^{-1} sum_i b_i x (R^T dq_i), dR = R [omega]x
  Positions y;    ///< R^T (q_i - c)
  VecX d;         ///< y_i - (q0_i - c0), flattened
  VecX Kd;        ///< K d
};

namespace {

void check_size(const MatX& stiffness, Eigen::Index nodes) {
  const Eigen::Index n = 3 * nodes;
  if (stiffness.rows() != n || stiffness.cols() != n)
    throw InputError("rotated linear elasticity: a " + std::to_string(stiffness.rows()) + "x" +
                     std::to_string(stiffness.cols()) + " stiffness for " + std::to_string(nodes) +
                     " nodes (expected " + std::to_string(n) + "x" + std::to_string(n) + ")");
}

}  // namespace

RotatedLinearElasticity::RotatedLinearElasticity(const Positions& rest, MatX stiffness)
    : rest_centered_(rest.rowwise() - rest.colwise().mean()) {
  check_size(stiffness, rest.rows());
  parts_.push_back({std::move(stiffness), rest_centered_});
}

RotatedLinearElasticity::RotatedLinearElasticity(const Positions& rest, std::vector<MatX> stiffnesses,
                                                 std::vector<Positions> fits)
    : rest_centered_(rest.rowwise() - rest.colwise().mean()) {
  if (stiffnesses.size() != fits.size() || stiffnesses.empty())
    throw InputError("rotated linear elasticity: " + std::to_string(stiffnesses.size()) + " part stiffnesses and " +
                     std::to_string(fits.size()) + " fits");
  for (std::size_t p = 0; p < stiffnesses.size(); ++p) {
    check_size(stiffnesses[p], rest.rows());
    if (fits[p].rows() != rest.rows() || fits[p].cols() != 3)
      throw InputError("rotated linear elasticity: a fit of " + std::to_string(fits[p].rows()) + " rows for " +
                       std::to_string(rest.rows()) + " nodes");
    parts_.push_back({std::move(stiffnesses[p]), (fits[p].rowwise() - fits[p].colwise().mean()).eval()});
  }
}

RotatedLinearElasticity::Frame RotatedLinearElasticity::frame(const Part& part, const Positions& q) const {
  const Positions centered = q.rowwise() - q.colwise().mean();
  const Mat3 A = centered.transpose() * part.fit;
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
  f.Kd = part.stiffness * f.d;
  return f;
}

double RotatedLinearElasticity::energy(const Positions& q) const {
  double e = 0.0;
  for (const Part& part : parts_) {
    const Frame f = frame(part, q);
    e += 0.5 * f.d.dot(f.Kd);
  }
  return e;
}

double RotatedLinearElasticity::energy_and_gradient(const Positions& q, VecX& gradient) const {
  gradient = VecX::Zero(3 * q.rows());
  double e = 0.0;
  for (const Part& part : parts_) e += add_gradient(part, frame(part, q), gradient);
  return e;
}

double RotatedLinearElasticity::add_gradient(const Part& part, const Frame& f, VecX& gradient) const {
  const Eigen::Index n = f.y.rows();
  // dPhi/dq_i = R (K d)_i + (d omega/dq_i)^T g,  g = dPhi/d omega = sum_i (K d)_i x y_i.
  Vec3 g = Vec3::Zero();
  for (Eigen::Index i = 0; i < n; ++i) g += f.Kd.segment<3>(3 * i).cross(f.y.row(i).transpose());
  const Vec3 Gg = f.G_inv * g;
  for (Eigen::Index i = 0; i < n; ++i)
    gradient.segment<3>(3 * i) += f.R * (f.Kd.segment<3>(3 * i) - part.fit.row(i).transpose().cross(Gg));
  return 0.5 * f.d.dot(f.Kd);
}

void RotatedLinearElasticity::add_hessian(const Part& part, const Frame& f, MatX& hessian) const {
  // D = dd/dq = blockdiag(R^T) + Y Z, with Y (3n x 3) stacking [y_i]x and Z (3 x 3n)
  // the blocks G^{-1} [b_i]x R^T: a rank-3 change of a block rotation, so
  //   D^T K D = Rb K Rb^T + P Z + (P Z)^T + Z^T (Y^T K Y) Z,   P = Rb K Y,
  // costs O(n^2), not the O(n^3) of forming D.
  const Eigen::Index n = f.y.rows();
  const MatX& K = part.stiffness;
  MatX Y(3 * n, 3), Z(3, 3 * n);
  for (Eigen::Index i = 0; i < n; ++i) {
    Y.middleRows<3>(3 * i) = cross_matrix(f.y.row(i).transpose());
    Z.middleCols<3>(3 * i) = f.G_inv * cross_matrix(part.fit.row(i).transpose()) * f.R.transpose();
  }
  const MatX KY = K * Y;
  MatX P(3 * n, 3);
  for (Eigen::Index i = 0; i < n; ++i) P.middleRows<3>(3 * i) = f.R * KY.middleRows<3>(3 * i);
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index i = 0; i < n; ++i)
      hessian.block<3, 3>(3 * i, 3 * j) += f.R * K.block<3, 3>(3 * i, 3 * j) * f.R.transpose();
  const MatX PZ = P * Z;
  hessian += PZ + PZ.transpose() + Z.transpose() * (Y.transpose() * KY) * Z;
}

void RotatedLinearElasticity::gradient_and_hessian(const Positions& q, VecX& gradient, MatX& hessian) const {
  const Eigen::Index n = q.rows();
  gradient = VecX::Zero(3 * n);
  hessian = MatX::Zero(3 * n, 3 * n);
  for (const Part& part : parts_) {
    const Frame f = frame(part, q);
    add_gradient(part, f, gradient);
    add_hessian(part, f, hessian);
  }
  hessian = 0.5 * (hessian + hessian.transpose()).eval();
}

}  // namespace eipc
