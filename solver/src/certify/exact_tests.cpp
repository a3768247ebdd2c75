// Exact triangle/triangle, adjacency-aware and point-in-surface tests with
// CGAL's Exact_predicates_inexact_constructions_kernel. Only predicates are
// used (orientation, coplanar_orientation, do_intersect), never constructions.
#include "eipc/certify/exact_tests.hpp"

#include "ray_parity.hpp"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/intersections.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace eipc::certify {
namespace {

using K = CGAL::Exact_predicates_inexact_constructions_kernel;
using Point = K::Point_3;
using Segment = K::Segment_3;
using Triangle = K::Triangle_3;

Point pt(const Vec3& v) { return Point(v.x(), v.y(), v.z()); }
Triangle tri(const TriangleRef& t) { return Triangle(pt(t.p[0]), pt(t.p[1]), pt(t.p[2])); }

/// Point p in the closed non-degenerate triangle abc, p known coplanar with it:
/// p is on the inner side of (or on) each edge line.
bool coplanar_point_in_triangle(const Point& a, const Point& b, const Point& c, const Point& p) {
  return CGAL::coplanar_orientation(a, b, c, p) != CGAL::NEGATIVE &&
         CGAL::coplanar_orientation(b, c, a, p) != CGAL::NEGATIVE &&
         CGAL::coplanar_orientation(c, a, b, p) != CGAL::NEGATIVE;
}

/// Point p on the closed segment ab (a == b allowed).
bool point_on_segment(const Point& a, const Point& b, const Point& p) {
  return CGAL::collinear(a, b, p) && CGAL::collinear_are_ordered_along_line(a, p, b);
}

bool point_on_triangle(const Point& a, const Point& b, const Point& c, const Point& p) {
  if (CGAL::collinear(a, b, c))
    return point_on_segment(a, b, p) || point_on_segment(b, c, p) || point_on_segment(c, a, p);
  return CGAL::orientation(a, b, c, p) == CGAL::COPLANAR && coplanar_point_in_triangle(a, b, c, p);
}

}  // namespace

namespace ray_parity {

RayHit ray_vs_triangle(const Point& p, const Point& q, const Point& a, const Point& b, const Point& c) {
  if (CGAL::collinear(a, b, c)) {
    const bool touches = CGAL::do_intersect(Segment(p, q), Segment(a, b)) ||
                         CGAL::do_intersect(Segment(p, q), Segment(b, c)) ||
                         CGAL::do_intersect(Segment(p, q), Segment(c, a));
    return touches ? RayHit::degenerate : RayHit::miss;
  }
  const auto op = CGAL::orientation(a, b, c, p);
  const auto oq = CGAL::orientation(a, b, c, q);
  if (op == CGAL::COPLANAR && oq == CGAL::COPLANAR)
    return CGAL::do_intersect(Segment(p, q), Triangle(a, b, c)) ? RayHit::degenerate : RayHit::miss;
  if (op == CGAL::COPLANAR || oq == CGAL::COPLANAR || op == oq) return RayHit::miss;
  // The segment crosses the plane; it crosses the triangle iff the line pq
  // sees the three edges with one orientation (zero: through an edge or vertex).
  const CGAL::Orientation s[3] = {CGAL::orientation(p, q, a, b), CGAL::orientation(p, q, b, c),
                                  CGAL::orientation(p, q, c, a)};
  const bool pos = std::count(s, s + 3, CGAL::POSITIVE) > 0;
  const bool neg = std::count(s, s + 3, CGAL::NEGATIVE) > 0;
  if (pos && neg) return RayHit::miss;
  if (std::count(s, s + 3, CGAL::COPLANAR) > 0) return RayHit::degenerate;
  return RayHit::cross;
}

const std::array<Vec3, 8>& directions() {
  static const std::array<Vec3, 8> dirs = {Vec3{0.5773, 0.5774, 0.5771},  Vec3{-0.3119, 0.8312, 0.4603},
                                           Vec3{0.7071, -0.1234, -0.6963}, Vec3{-0.4472, -0.7746, 0.4472},
                                           Vec3{0.1391, 0.2931, -0.9459},  Vec3{-0.8321, 0.1109, -0.5433},
                                           Vec3{0.2673, -0.9341, 0.2370},  Vec3{0.9219, 0.3301, 0.2029}};
  return dirs;
}

Vec3 ray_end(const Vec3& p, const Vec3& d, const Vec3& lo, const Vec3& hi) {
  const double reach = 2.0 * ((hi - lo).norm() + (p - lo).norm() + (p - hi).norm()) + 1.0;
  Vec3 q = p + reach * d;
  while (!((q.array() < lo.array()).any() || (q.array() > hi.array()).any())) q = p + 2.0 * (q - p);
  return q;
}

}  // namespace ray_parity

bool triangle_is_degenerate(const Vec3& a, const Vec3& b, const Vec3& c) {
  return CGAL::collinear(pt(a), pt(b), pt(c));
}

bool triangles_intersect(const TriangleRef& s, const TriangleRef& t) {
  int shared = 0, si = -1, ti = -1;  // a shared corner: s.p[si] is t.p[ti]
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (s.id[i] == t.id[j]) { ++shared; si = i; ti = j; }
  if (shared == 0) return CGAL::do_intersect(tri(s), tri(t));
  if (shared == 1) {
    // Both triangles are star-shaped from v; they meet beyond v iff the edge
    // opposite v in one of them meets the other triangle.
    const Segment s_opp(pt(s.p[(si + 1) % 3]), pt(s.p[(si + 2) % 3]));
    const Segment t_opp(pt(t.p[(ti + 1) % 3]), pt(t.p[(ti + 2) % 3]));
    return CGAL::do_intersect(s_opp, tri(t)) || CGAL::do_intersect(t_opp, tri(s));
  }
  if (shared >= 3) return true;
  // Shared edge uw: apexes are the corners whose ids the other triangle lacks.
  auto apex = [](const TriangleRef& x, const TriangleRef& y) {
    for (int i = 0; i < 3; ++i)
      if (x.id[i] != y.id[0] && x.id[i] != y.id[1] && x.id[i] != y.id[2]) return i;
    return -1;
  };
  const int sa = apex(s, t), ta = apex(t, s);
  const Point u = pt(s.p[(sa + 1) % 3]), w = pt(s.p[(sa + 2) % 3]);
  const Point a = pt(s.p[sa]), b = pt(t.p[ta]);
  if (CGAL::orientation(u, w, a, b) != CGAL::COPLANAR) return false;  // meet exactly in uw
  // Coplanar: legal only when the apexes lie strictly on opposite sides of uw.
  return CGAL::coplanar_orientation(u, w, a, b) != CGAL::NEGATIVE;
}

PointSide side_of_closed_surface(const Vec3& p, const Positions& x, const Tris& faces) {
  if (faces.rows() == 0) return PointSide::outside;
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (int f = 0; f < faces.rows(); ++f)
    for (int k = 0; k < 3; ++k) {
      lo = lo.cwiseMin(x.row(faces(f, k)).transpose());
      hi = hi.cwiseMax(x.row(faces(f, k)).transpose());
    }
  if ((p.array() < lo.array()).any() || (p.array() > hi.array()).any()) return PointSide::outside;
  const Point pp = pt(p);
  auto corner = [&](int f, int k) { return pt(x.row(faces(f, k)).transpose()); };
  for (int f = 0; f < faces.rows(); ++f)
    if (point_on_triangle(corner(f, 0), corner(f, 1), corner(f, 2), pp)) return PointSide::on_boundary;

  for (const Vec3& d : ray_parity::directions()) {
    const Vec3 q = ray_parity::ray_end(p, d, lo, hi);
    const Point qq = pt(q);
    int crossings = 0;
    bool degenerate = false;
    for (int f = 0; f < faces.rows() && !degenerate; ++f) {
      const auto h = ray_parity::ray_vs_triangle(pp, qq, corner(f, 0), corner(f, 1), corner(f, 2));
      if (h == ray_parity::RayHit::cross) ++crossings;
      degenerate = h == ray_parity::RayHit::degenerate;
    }
    if (!degenerate) return crossings % 2 ? PointSide::inside : PointSide::outside;
  }
  return PointSide::undecided;
}

bool is_closed_surface(const Tris& faces) {
  // Every undirected edge (a < b as one 64-bit key) an even number of times: sort, count runs.
  std::vector<std::uint64_t> edges;
  edges.reserve(static_cast<std::size_t>(faces.rows()) * 3);
  for (int f = 0; f < faces.rows(); ++f)
    for (int k = 0; k < 3; ++k) {
      const int a = faces(f, k), b = faces(f, (k + 1) % 3);
      if (a == b) return false;
      edges.push_back(static_cast<std::uint64_t>(std::min(a, b)) << 32 | static_cast<std::uint32_t>(std::max(a, b)));
    }
  std::sort(edges.begin(), edges.end());
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i;
    while (j < edges.size() && edges[j] == edges[i]) ++j;
    if ((j - i) % 2 != 0) return false;
    i = j;
  }
  return true;
}

}  // namespace eipc::certify
