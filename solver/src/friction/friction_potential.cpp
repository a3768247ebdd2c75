#include "eipc/friction/friction_potential.hpp"

#include "eipc/friction/smooth_friction.hpp"
#include "../collisions/local_assembly.hpp"

#include <algorithm>

namespace eipc {

Eigen::Vector2d friction_relative_displacement(const FrictionContact& c, const Positions& x, const Positions& x_n) {
  Vec3 dx = Vec3::Zero();
  for (int i = 0; i < c.num_vertices(); ++i)
    dx += c.weights[i] * (x.row(c.vertices[i]) - x_n.row(c.vertices[i])).transpose();
  return c.basis.transpose() * dx;
}

double contact_friction(const FrictionContact& c, const Positions& x, const Positions& x_n, double epsv_h) {
  return c.mu * c.normal_force * friction_f0(friction_relative_displacement(c, x, x_n).norm(), epsv_h);
}

Vec<12> contact_friction_gradient(const FrictionContact& c, const Positions& x, const Positions& x_n,
                                  double epsv_h) {
  const Eigen::Vector2d u = friction_relative_displacement(c, x, x_n);
  const Vec3 t = c.mu * c.normal_force * friction_f1_over_y(u.norm(), epsv_h) * (c.basis * u);
  Vec<12> g = Vec<12>::Zero();
  for (int i = 0; i < c.num_vertices(); ++i) g.segment<3>(3 * i) = c.weights[i] * t;
  return g;
}

Mat<12> contact_friction_hessian(const FrictionContact& c, const Positions& x, const Positions& x_n, double epsv_h,
                                 bool project_psd) {
  const Eigen::Vector2d u = friction_relative_displacement(c, x, x_n);
  const double y = u.norm(), e = epsv_h;
  Eigen::Matrix2d m = friction_f1_over_y(y, e) * Eigen::Matrix2d::Identity();
  if (y > 0) {
    if (project_psd) {
      // Eigenvalues: f1/y across u (> 0) and f1'(y) along u (>= 0 in exact arithmetic).
      const Eigen::Matrix2d uu = u * u.transpose() / (y * y);
      const double f1_prime = y < e ? 2 / e * (1 - y / e) : 0.0;
      m = friction_f1_over_y(y, e) * (Eigen::Matrix2d::Identity() - uu) + std::max(f1_prime, 0.0) * uu;
    } else {
      m += friction_f1_over_y_derivative_over_y(y, e) * u * u.transpose();
    }
  }
  const Mat3 block = c.mu * c.normal_force * c.basis * m * c.basis.transpose();
  Mat<12> h = Mat<12>::Zero();
  for (int i = 0; i < c.num_vertices(); ++i)
    for (int j = 0; j < c.num_vertices(); ++j) h.block<3, 3>(3 * i, 3 * j) = c.weights[i] * c.weights[j] * block;
  return h;
}

std::vector<double> friction_stick_crossings(const Positions& x0, const Positions& x1, const Positions& x_n,
                                             const FrictionSet& friction) {
  std::vector<double> alphas;
  const double e = friction.epsv_h;
  for (const FrictionContact& c : friction.contacts) {
    const Eigen::Vector2d u0 = friction_relative_displacement(c, x0, x_n);
    const Eigen::Vector2d du = friction_relative_displacement(c, x1, x_n) - u0;
    if (u0.norm() <= e || u0.dot(du) >= 0) continue;
    const double alpha = -u0.dot(du) / du.squaredNorm();
    if (alpha < 1.0 && (u0 + alpha * du).norm() <= e) alphas.push_back(alpha);
  }
  std::sort(alphas.rbegin(), alphas.rend());
  return alphas;
}

double friction_potential(const Positions& x, const Positions& x_n, const FrictionSet& friction) {
  const auto local = detail::map_contacts<double>(
      friction.size(), grain_for(0.15), [&](std::size_t k) { return contact_friction(friction.contacts[k], x, x_n, friction.epsv_h); });
  double sum = 0;
  for (double e : local) sum += e;
  return sum;
}

VecX friction_potential_gradient(const Positions& x, const Positions& x_n, const FrictionSet& friction) {
  const auto local = detail::map_contacts<Vec<12>>(friction.size(), grain_for(0.4), [&](std::size_t k) {
    return contact_friction_gradient(friction.contacts[k], x, x_n, friction.epsv_h);
  });
  VecX g = VecX::Zero(x.size());
  for (std::size_t k = 0; k < local.size(); ++k) detail::scatter_add(friction.contacts[k], local[k], g);
  return g;
}

std::vector<Mat<12>> friction_potential_local_hessians(const Positions& x, const Positions& x_n,
                                                       const FrictionSet& friction, bool project_psd) {
  return detail::map_contacts<Mat<12>>(friction.size(), grain_for(0.5), [&](std::size_t k) {
    return contact_friction_hessian(friction.contacts[k], x, x_n, friction.epsv_h, project_psd);
  });
}


}  // namespace eipc
