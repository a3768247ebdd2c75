#include "eipc/geometry/rigid_fit.hpp"

#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <limits>

namespace eipc {

RigidFit fit_rigid(const Positions& from, const Positions& to, const std::vector<int>& vertices) {
  RigidFit fit;
  if (vertices.empty()) return fit;
  // One pass for the sums: the rotation need not be the best one to the last
  // digit (the deviation below is measured exactly for the one found).
  Mat3 sum_products = Mat3::Zero();
  for (int v : vertices) {
    const Vec3 a = from.row(v).transpose(), b = to.row(v).transpose();
    fit.from_mean += a;
    fit.to_mean += b;
    sum_products += a * b.transpose();
  }
  const double n = double(vertices.size());
  fit.from_mean /= n;
  fit.to_mean /= n;
  const Mat3 cross = sum_products - n * fit.from_mean * fit.to_mean.transpose();
  const Eigen::JacobiSVD<Mat3> svd(cross, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 flip = Mat3::Identity();
  flip(2, 2) = (svd.matrixV() * svd.matrixU().transpose()).determinant() < 0.0 ? -1.0 : 1.0;
  fit.rotation = svd.matrixV() * flip * svd.matrixU().transpose();
  double worst = 0.0;
  for (int v : vertices)
    worst = std::max(worst, (to.row(v).transpose() - fit.to_mean -
                             fit.rotation * (from.row(v).transpose() - fit.from_mean)).squaredNorm());
  fit.deviation = std::sqrt(worst);
  return fit;
}

RigidFit fit_translation(const Positions& from, const Positions& to, const std::vector<int>& vertices, double enough) {
  RigidFit fit;
  if (vertices.empty()) return fit;
  Eigen::Array3d sum = Eigen::Array3d::Zero();
  Eigen::Array3d lo = Eigen::Array3d::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (int v : vertices) {
    const Eigen::Array3d d = (to.row(v) - from.row(v)).transpose().array();
    sum += d;
    lo = lo.min(d);
    hi = hi.max(d);
  }
  const Eigen::Array3d mean = sum / double(vertices.size());
  fit.to_mean = mean.matrix();  // from_mean stays 0: to is about from + to_mean
  // Every displacement lies in the box, so within its farthest corner from the mean.
  fit.deviation = (hi - mean).max(mean - lo).matrix().norm();
  if (fit.deviation <= enough) return fit;
  double worst = 0.0;
  for (int v : vertices) worst = std::max(worst, (to.row(v) - from.row(v) - fit.to_mean.transpose()).squaredNorm());
  fit.deviation = std::sqrt(worst);
  return fit;
}

double half_angle_cosine(const RigidFit& a, const RigidFit& b) {
  // cos(theta) = (trace(R_a^T R_b) - 1) / 2, and cos(theta / 2)^2 = (1 + cos(theta)) / 2.
  const double trace = (a.rotation.transpose() * b.rotation).trace();
  return std::sqrt(std::clamp((trace + 1.0) / 4.0, 0.0, 1.0));
}

}  // namespace eipc
