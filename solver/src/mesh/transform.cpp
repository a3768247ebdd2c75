#include "eipc/mesh/transform.hpp"

#include <cmath>

namespace eipc {

Mat3 rotation_xyz_deg(const Vec3& deg) {
  const Vec3 r = deg * (M_PI / 180.0);
  Mat3 rx, ry, rz;
  rx << 1, 0, 0, 0, std::cos(r.x()), -std::sin(r.x()), 0, std::sin(r.x()), std::cos(r.x());
  ry << std::cos(r.y()), 0, std::sin(r.y()), 0, 1, 0, -std::sin(r.y()), 0, std::cos(r.y());
  rz << std::cos(r.z()), -std::sin(r.z()), 0, std::sin(r.z()), std::cos(r.z()), 0, 0, 0, 1;
  return rz * ry * rx;
}

Positions transformed(const Positions& x, const Transform& t) {
  const Vec3 pivot = x.rows() > 0 ? Vec3(x.colwise().mean().transpose()) : Vec3::Zero();
  return transformed(x, t, pivot);
}

Positions transformed(const Positions& x, const Transform& t, const Vec3& pivot) {
  // x' = p + s R (x - p) + t, evaluated as x + (s R - I)(x - p) + t so that the identity
  // transform (s R = I exactly) returns the positions bit for bit.
  const Mat3 a = t.scale * rotation_xyz_deg(t.rotation_deg) - Mat3::Identity();
  Positions out(x.rows(), 3);
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    const Vec3 xi = x.row(i).transpose();
    out.row(i) = (xi + (a * (xi - pivot) + t.translation)).transpose();
  }
  return out;
}

}  // namespace eipc
