#include "eipc/certify/closest_points.hpp"

#include <algorithm>

namespace eipc::certify {

std::pair<Vec3, Vec3> closest_points_on_segments(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1) {
  const Vec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  auto clamp01 = [](double v) { return std::clamp(v, 0.0, 1.0); };
  double s = 0.0, t = 0.0;
  if (a == 0.0 && e == 0.0) {
    // both points
  } else if (a == 0.0) {
    t = clamp01(f / e);
  } else {
    const double c = d1.dot(r);
    if (e == 0.0) {
      s = clamp01(-c / a);
    } else {
      // Unconstrained minimiser of the quadratic in (s, t), then clamp each in turn.
      const double b = d1.dot(d2), denom = a * e - b * b;
      s = denom > 0.0 ? clamp01((b * f - c * e) / denom) : 0.0;
      t = (b * s + f) / e;
      if (t < 0.0) { t = 0.0; s = clamp01(-c / a); }
      else if (t > 1.0) { t = 1.0; s = clamp01((b - c) / a); }
    }
  }
  return {p0 + s * d1, q0 + t * d2};
}

Vec3 closest_point_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  // Barycentric region tests: vertex regions, edge regions, then the face.
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + (d1 / (d1 - d3)) * ab;
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + (d2 / (d2 - d6)) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);
  const double sum = va + vb + vc;
  const Vec3 face = a + ab * (vb / sum) + ac * (vc / sum);
  if (face.allFinite()) return face;
  // Degenerate triangle: nearest of the three edges.
  Vec3 best = a;
  for (const auto& [u, w] : {std::pair<Vec3, Vec3>{a, b}, {b, c}, {c, a}}) {
    const Vec3 q = closest_points_on_segments(p, p, u, w).second;
    if ((q - p).squaredNorm() < (best - p).squaredNorm()) best = q;
  }
  return best;
}

}  // namespace eipc::certify
