#include "eipc/distance/closest_point.hpp"

#include <Eigen/Dense>

namespace eipc {

Vec3 point_triangle_closest_weights(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2,
                                    PointTriangleDistanceType type) {
  using T = PointTriangleDistanceType;
  switch (type) {
    case T::P_T0: return {1, 0, 0};
    case T::P_T1: return {0, 1, 0};
    case T::P_T2: return {0, 0, 1};
    case T::P_E0: { const double s = point_segment_parameter(p, t0, t1); return {1 - s, s, 0}; }
    case T::P_E1: { const double s = point_segment_parameter(p, t1, t2); return {0, 1 - s, s}; }
    case T::P_E2: { const double s = point_segment_parameter(p, t2, t0); return {s, 0, 1 - s}; }
    case T::P_T: {
      // Projection t0 + b1 e1 + b2 e2 solves the 2x2 normal equations [e_i . e_j] b = [e_i . (p - t0)].
      const Vec3 e1 = t1 - t0, e2 = t2 - t0, r = p - t0;
      Eigen::Matrix2d a;
      a << e1.dot(e1), e1.dot(e2), e1.dot(e2), e2.dot(e2);
      const Eigen::Vector2d b = a.inverse() * Eigen::Vector2d(e1.dot(r), e2.dot(r));
      return {1 - b(0) - b(1), b(0), b(1)};
    }
  }
  return {1, 0, 0};
}

Eigen::Vector2d edge_edge_closest_parameters(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0, const Vec3& eb1,
                                             EdgeEdgeDistanceType type) {
  using T = EdgeEdgeDistanceType;
  switch (type) {
    case T::EA0_EB0: return {0, 0};
    case T::EA0_EB1: return {0, 1};
    case T::EA1_EB0: return {1, 0};
    case T::EA1_EB1: return {1, 1};
    case T::EA_EB0: return {point_segment_parameter(eb0, ea0, ea1), 0};
    case T::EA_EB1: return {point_segment_parameter(eb1, ea0, ea1), 1};
    case T::EA0_EB: return {0, point_segment_parameter(ea0, eb0, eb1)};
    case T::EA1_EB: return {1, point_segment_parameter(ea1, eb0, eb1)};
    case T::EA_EB: {
      // Minimiser of |ea0 + s ea - eb0 - t eb|^2: [a -b; -b c] (s,t) = (-d, e).
      const Vec3 ea = ea1 - ea0, eb = eb1 - eb0, w = ea0 - eb0;
      const double a = ea.dot(ea), b = ea.dot(eb), c = eb.dot(eb), d = ea.dot(w), e = eb.dot(w);
      const double D = a * c - b * b;
      return {(b * e - c * d) / D, (a * e - b * d) / D};
    }
  }
  return {0, 0};
}

}  // namespace eipc
