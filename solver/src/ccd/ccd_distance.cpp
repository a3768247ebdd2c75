#include "eipc/ccd/ccd_distance.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>

namespace eipc::ccd {

namespace {
// Relative slack on parameter-range tests: borderline projections count as inside.
constexpr double kInsideTolerance = 1e-9;
// Below this |ea x eb| / (|ea||eb|) the line-line formula is not trusted.
constexpr double kParallelSine = 1e-10;
}  // namespace

double point_segment_distance(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 e = b - a;
  const double ee = e.squaredNorm();
  if (ee == 0.0) return (p - a).norm();
  const double s = std::clamp((p - a).dot(e) / ee, 0.0, 1.0);
  // Compare with both endpoints too: guards against rounding in s near the ends.
  const double d_line = (p - (a + s * e)).norm();
  return std::min({d_line, (p - a).norm(), (p - b).norm()});
}

double point_triangle_distance(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2) {
  double d = std::min({point_segment_distance(p, t0, t1), point_segment_distance(p, t1, t2),
                       point_segment_distance(p, t2, t0)});
  const Vec3 e1 = t1 - t0, e2 = t2 - t0;
  const Vec3 n = e1.cross(e2);
  const double nn = n.squaredNorm();
  if (nn == 0.0) return d;  // degenerate triangle: it is the union of its edges
  // Barycentric coordinates of the projection t0 + b1 e1 + b2 e2 of p onto the plane.
  const Vec3 r = p - t0;
  const double b1 = r.cross(e2).dot(n) / nn;  // (r x e2).n / |n|^2
  const double b2 = e1.cross(r).dot(n) / nn;                // (e1 x r).n / |n|^2
  const double b0 = 1.0 - b1 - b2;
  const double tol = -kInsideTolerance;
  if (b0 >= tol && b1 >= tol && b2 >= tol) d = std::min(d, std::abs(n.dot(r)) / std::sqrt(nn));
  return d;
}

double edge_edge_distance(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1) {
  const double d_end = std::min({point_segment_distance(a0, b0, b1), point_segment_distance(a1, b0, b1),
                                 point_segment_distance(b0, a0, a1), point_segment_distance(b1, a0, a1)});
  const Vec3 ea = a1 - a0, eb = b1 - b0;
  const double la = ea.norm(), lb = eb.norm();
  if (la == 0.0 || lb == 0.0) return d_end;  // a point against a segment: covered above
  const Vec3 n = ea.cross(eb);
  const double ln = n.norm();
  if (ln <= kParallelSine * la * lb) return std::max(0.0, d_end - ln / std::min(la, lb));
  // Closest points of the lines a0 + s ea, b0 + t eb:
  // s = ((b0-a0) x eb).n / |n|^2, t = ((b0-a0) x ea).n / |n|^2.
  const Vec3 w = b0 - a0;
  const double nn = ln * ln;
  const double s = w.cross(eb).dot(n) / nn;
  const double t = w.cross(ea).dot(n) / nn;
  const double lo = -kInsideTolerance, hi = 1.0 + kInsideTolerance;
  if (s >= lo && s <= hi && t >= lo && t <= hi) return std::min(d_end, std::abs(w.dot(n)) / ln);
  return d_end;
}

}  // namespace eipc::ccd
