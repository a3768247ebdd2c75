#include "eipc/elasticity/lumped_mass.hpp"

#include <stdexcept>

namespace eipc {

VecX lumped_mass(const Positions& rest, const Tets& tets, const VecX& volumes, double density) {
  if (volumes.size() != tets.rows())
    throw std::invalid_argument("lumped_mass: one volume per tet expected");
  VecX m = VecX::Zero(rest.rows());
  for (Eigen::Index t = 0; t < tets.rows(); ++t)  // fixed order: deterministic
    for (int a = 0; a < 4; ++a) m[tets(t, a)] += 0.25 * density * volumes[t];
  return m;
}

VecX shell_lumped_mass(const Positions& rest, const Tris& triangles, double thickness, double density) {
  VecX m = VecX::Zero(rest.rows());
  for (Eigen::Index t = 0; t < triangles.rows(); ++t) {
    const Vec3 a = rest.row(triangles(t, 0)), b = rest.row(triangles(t, 1)), c = rest.row(triangles(t, 2));
    const double third = density * thickness * 0.5 * (b - a).cross(c - a).norm() / 3.0;
    for (int k = 0; k < 3; ++k) m[triangles(t, k)] += third;
  }
  return m;
}

}  // namespace eipc
