#include "eipc/distance/point_point.hpp"

namespace eipc {

double point_point_distance_sq(const Vec3& p, const Vec3& q) { return (p - q).squaredNorm(); }

Vec<6> point_point_distance_sq_gradient(const Vec3& p, const Vec3& q) {
  Vec<6> g;
  g << 2 * (p - q), -2 * (p - q);
  return g;
}

Mat<6> point_point_distance_sq_hessian(const Vec3&, const Vec3&) {
  Mat<6> h;
  const Mat3 I2 = 2 * Mat3::Identity();
  h << I2, -I2, -I2, I2;
  return h;
}

}  // namespace eipc
