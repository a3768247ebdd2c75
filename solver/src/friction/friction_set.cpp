#include "eipc/friction/friction_set.hpp"

#include <Eigen/Geometry>

#include "eipc/barrier/barrier.hpp"
#include "eipc/distance/closest_point.hpp"
#include "eipc/distance/edge_edge.hpp"
#include "eipc/distance/edge_edge_mollifier.hpp"
#include "eipc/distance/point_triangle.hpp"
#include "../collisions/local_assembly.hpp"

#include <cmath>

namespace eipc {

Eigen::Matrix<double, 3, 2> tangent_basis(const Vec3& n) {
  Eigen::Index axis = 0;
  n.cwiseAbs().minCoeff(&axis);
  const Vec3 t1 = n.cross(Vec3::Unit(axis)).normalized();
  Eigen::Matrix<double, 3, 2> basis;
  basis << t1, n.cross(t1);
  if (n.z() > 0 && n.x() == 0 && n.y() == 0) basis << Vec3::UnitX(), Vec3::UnitY();  // ground: (ex, ey)
  return basis;
}

namespace {

// Unit normal from side B to side A; falls back to the primitive's own normal when the
// closest-point difference vanishes (touching), which a valid state never has.
Vec3 unit_normal(const Vec3& difference, const Vec3& fallback) {
  const double n = difference.norm();
  if (n > 0) return difference / n;
  const double f = fallback.norm();
  return f > 0 ? Vec3(fallback / f) : Vec3::UnitZ();
}

FrictionContact make(const Contact& c, const Positions& xn, double dhat, double kappa, double mu,
                     std::optional<double> ground_height) {
  FrictionContact f;
  f.kind = c.kind;
  f.vertices = c.vertices;
  f.mu = mu;
  Vec3 v[4];
  for (int i = 0; i < c.num_vertices(); ++i) v[i] = xn.row(c.vertices[i]).transpose();
  double d = 0, m = 1;
  Vec3 normal;
  if (c.kind == ContactKind::point_ground) {
    d = v[0].z() - ground_height.value_or(0.0);
    f.weights = {1, 0, 0, 0};
    normal = Vec3::UnitZ();
  } else if (c.kind == ContactKind::point_triangle) {
    d = std::sqrt(point_triangle_distance_sq(v[0], v[1], v[2], v[3], c.pt_type));
    const Vec3 w = point_triangle_closest_weights(v[0], v[1], v[2], v[3], c.pt_type);
    f.weights = {1, -w(0), -w(1), -w(2)};
    const Vec3 tri_n = (v[2] - v[1]).cross(v[3] - v[1]);
    const Vec3 diff = v[0] - (w(0) * v[1] + w(1) * v[2] + w(2) * v[3]);
    if (c.pt_type == PointTriangleDistanceType::P_T)
      normal = unit_normal(diff.dot(tri_n) >= 0 ? tri_n : Vec3(-tri_n), diff);
    else
      normal = unit_normal(diff, tri_n);
  } else {
    d = std::sqrt(edge_edge_distance_sq(v[0], v[1], v[2], v[3], c.ee_type));
    m = edge_edge_mollifier(v[0], v[1], v[2], v[3], c.eps_x);
    const Eigen::Vector2d st = edge_edge_closest_parameters(v[0], v[1], v[2], v[3], c.ee_type);
    f.weights = {1 - st(0), st(0), -(1 - st(1)), -st(1)};
    const Vec3 cross = (v[1] - v[0]).cross(v[3] - v[2]);
    const Vec3 diff = (1 - st(0)) * v[0] + st(0) * v[1] - (1 - st(1)) * v[2] - st(1) * v[3];
    if (c.ee_type == EdgeEdgeDistanceType::EA_EB)
      normal = unit_normal(diff.dot(cross) >= 0 ? cross : Vec3(-cross), diff);
    else
      normal = unit_normal(diff, cross);
  }
  f.basis = tangent_basis(normal);
  // The offset barrier's force, b'(d - o) (docs/design.md, "Contact offset").
  f.normal_force = kappa * m * std::abs(barrier_first_derivative(d - c.offset, dhat));
  return f;
}

}  // namespace

FrictionSet build_friction_set(const CollisionMesh&, const Positions& x_n, const ContactSet& contacts, double dhat,
                               double kappa, double mu, double eps_v, double dt) {
  FrictionSet set;
  set.epsv_h = eps_v * dt;
  set.contacts = detail::map_contacts<FrictionContact>(contacts.size(), grain_for(0.5), [&](std::size_t k) {
    return make(contacts.contacts[k], x_n, dhat, kappa, mu, contacts.ground_height);
  });
  return set;
}

}  // namespace eipc
