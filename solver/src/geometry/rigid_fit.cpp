#include "eipc/geometry/rigid_fit.hpp"

#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <limits>

namespace eipc {

namespace {

/// The mean translation (one pass), its deviation bounded by the box of the
/// displacements: every displacement lies within the box's farthest corner
/// from their mean.
RigidFit translation_of(const Positions& from, const Positions& to, const std::vector<int>& vertices) {
  RigidFit fit;
  Eigen::Array3d lo = Eigen::Array3d::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (int v : vertices) {
    const Vec3 a = from.row(v).transpose(), b = to.row(v).transpose();
    fit.from_mean += a;
    fit.to_mean += b;
    lo = lo.min((b - a).array());
    hi = hi.max((b - a).array());
  }
  const double n = double(vertices.size());
  fit.from_mean /= n;
  fit.to_mean /= n;
  const Eigen::Array3d mean = (fit.to_mean - fit.from_mean).array();
  fit.deviation = (hi - mean).max(mean - lo).matrix().norm();
  return fit;
}

/// `moved` (the mean translation) with the turn that best follows the vertices.
RigidFit turned(const Positions& from, const Positions& to, const std::vector<int>& vertices, RigidFit moved) {
  // The cross-covariance, summed entry by entry in plain arithmetic (Eigen's
  // outer product per vertex cost several times more; the same sums).
  const double* f = moved.from_mean.data();
  const double* t = moved.to_mean.data();
  double sum[3][3] = {};
  for (int v : vertices) {
    const double* a = from.row(v).data();
    const double* b = to.row(v).data();
    const double d[3] = {a[0] - f[0], a[1] - f[1], a[2] - f[2]}, e[3] = {b[0] - t[0], b[1] - t[1], b[2] - t[2]};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) sum[i][j] += d[i] * e[j];
  }
  Mat3 cross;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) cross(i, j) = sum[i][j];
  const Eigen::JacobiSVD<Mat3> svd(cross, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 flip = Mat3::Identity();
  flip(2, 2) = (svd.matrixV() * svd.matrixU().transpose()).determinant() < 0.0 ? -1.0 : 1.0;
  moved.rotation = svd.matrixV() * flip * svd.matrixU().transpose();
  return moved;
}

/// The largest |to - (R (from - from_mean) + to_mean)|, or the first past give_up.
double deviation(const Positions& from, const Positions& to, const std::vector<int>& vertices, const RigidFit& fit,
                 double give_up) {
  const double give_up2 = give_up * give_up;
  double worst = 0.0;
  for (int v : vertices) {
    worst = std::max(worst, (to.row(v).transpose() - fit.to_mean -
                             fit.rotation * (from.row(v).transpose() - fit.from_mean)).squaredNorm());
    if (worst > give_up2) break;
  }
  return std::sqrt(worst);
}

}  // namespace

RigidFit fit_rigid(const Positions& from, const Positions& to, const std::vector<int>& vertices, double give_up) {
  if (vertices.empty()) return {};
  RigidFit fit = turned(from, to, vertices, translation_of(from, to, vertices));
  fit.deviation = deviation(from, to, vertices, fit, give_up);
  return fit;
}

RigidFit fit_translation(const Positions& from, const Positions& to, const std::vector<int>& vertices) {
  if (vertices.empty()) return {};
  RigidFit fit = translation_of(from, to, vertices);
  fit.deviation = deviation(from, to, vertices, fit, std::numeric_limits<double>::infinity());
  return fit;
}

RigidFit follow(const Positions& from, const Positions& to, const std::vector<int>& vertices, double skin, bool turn) {
  if (vertices.empty()) return {};
  RigidFit fit = translation_of(from, to, vertices);
  if (fit.deviation <= skin) return fit;
  fit.deviation = deviation(from, to, vertices, fit, skin);
  if (fit.deviation <= skin || !turn) return fit;
  fit = turned(from, to, vertices, fit);
  fit.deviation = deviation(from, to, vertices, fit, skin);
  return fit;
}

double half_angle_cosine(const RigidFit& a, const RigidFit& b) {
  // cos(theta) = (trace(R_a^T R_b) - 1) / 2, and cos(theta / 2)^2 = (1 + cos(theta)) / 2.
  const double trace = (a.rotation.transpose() * b.rotation).trace();
  return std::sqrt(std::clamp((trace + 1.0) / 4.0, 0.0, 1.0));
}

}  // namespace eipc
