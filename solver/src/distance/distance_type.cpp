#include "eipc/distance/distance_type.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <limits>

namespace eipc {

double point_segment_parameter(const Vec3& p, const Vec3& e0, const Vec3& e1) {
  const Vec3 e = e1 - e0;
  const double ee = e.squaredNorm();
  if (ee <= 0) return 0.0;
  return std::clamp(e.dot(p - e0) / ee, 0.0, 1.0);
}

PointTriangleDistanceType point_triangle_distance_type(const Vec3& p, const Vec3& t0, const Vec3& t1,
                                                       const Vec3& t2) {
  using T = PointTriangleDistanceType;
  const Vec3 t[3] = {t0, t1, t2};
  const Vec3 n = (t1 - t0).cross(t2 - t0);
  const double scale = std::max({(t1 - t0).squaredNorm(), (t2 - t1).squaredNorm(), (t0 - t2).squaredNorm()});
  if (n.squaredNorm() > 1e-24 * scale * scale) {
    // p projects inside iff it lies on the inner side of all three edges: n . (e_i x (p - t_i)) >= 0.
    bool inside = true;
    for (int i = 0; i < 3 && inside; ++i) inside = n.dot((t[(i + 1) % 3] - t[i]).cross(p - t[i])) >= 0;
    if (inside) return T::P_T;
  }
  // Outside: the closest point is on the boundary; take the nearest clamped edge point.
  static constexpr T edge_type[3] = {T::P_E0, T::P_E1, T::P_E2};
  static constexpr T vertex_type[3] = {T::P_T0, T::P_T1, T::P_T2};
  double best = std::numeric_limits<double>::infinity();
  T best_type = T::P_T0;
  for (int i = 0; i < 3; ++i) {
    const Vec3& a = t[i];
    const Vec3& b = t[(i + 1) % 3];
    const double s = point_segment_parameter(p, a, b);
    const double d = (p - (a + s * (b - a))).squaredNorm();
    if (d < best) {
      best = d;
      best_type = s <= 0 ? vertex_type[i] : s >= 1 ? vertex_type[(i + 1) % 3] : edge_type[i];
    }
  }
  return best_type;
}

EdgeEdgeDistanceType edge_edge_distance_type(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0,
                                             const Vec3& eb1) {
  using T = EdgeEdgeDistanceType;
  const Vec3 ea = ea1 - ea0, eb = eb1 - eb0, w = ea0 - eb0;
  const double a = ea.squaredNorm(), b = ea.dot(eb), c = eb.squaredNorm(), d = ea.dot(w), e = eb.dot(w);
  // |ea x eb|^2 from the cross product: a c - b^2 cancels catastrophically for
  // nearly parallel edges (its round-off, ~1e-16 a c, dwarfs the threshold below).
  const double D = ea.cross(eb).squaredNorm();
  if (D > 1e-20 * a * c) {
    // Minimiser of |ea0 + s ea - eb0 - t eb|^2 over the two lines.
    const double s = (b * e - c * d) / D, t = (a * e - b * d) / D;
    if (s > 0 && s < 1 && t > 0 && t < 1) return T::EA_EB;
  }
  // Boundary of the parameter square: an endpoint against the other segment.
  struct Option {
    double dist;
    T type;
  };
  auto endpoint_a = [&](const Vec3& p, T at0, T at1, T interior) {
    const double t = point_segment_parameter(p, eb0, eb1);
    return Option{(p - (eb0 + t * eb)).squaredNorm(), t <= 0 ? at0 : t >= 1 ? at1 : interior};
  };
  auto endpoint_b = [&](const Vec3& p, T at0, T at1, T interior) {
    const double s = point_segment_parameter(p, ea0, ea1);
    return Option{(p - (ea0 + s * ea)).squaredNorm(), s <= 0 ? at0 : s >= 1 ? at1 : interior};
  };
  const Option options[4] = {endpoint_a(ea0, T::EA0_EB0, T::EA0_EB1, T::EA0_EB),
                             endpoint_a(ea1, T::EA1_EB0, T::EA1_EB1, T::EA1_EB),
                             endpoint_b(eb0, T::EA0_EB0, T::EA1_EB0, T::EA_EB0),
                             endpoint_b(eb1, T::EA0_EB1, T::EA1_EB1, T::EA_EB1)};
  Option best = options[0];
  for (int i = 1; i < 4; ++i)
    if (options[i].dist < best.dist) best = options[i];
  return best.type;
}

}  // namespace eipc
