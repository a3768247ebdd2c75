// Exact triangle/triangle, adjacency-aware and point-in-surface tests with
// CGAL's Exact_predicates_inexact_constructions_kernel. Only predicates are
// used (orientation, coplanar_orientation, do_intersect), never constructions.
#include "eipc/certify/exact_tests.hpp"

#include "ray_parity.hpp"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/intersections.h>

#include <algorithm>
#include <cmath>
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

/// Corners with equal ids: their number, and one such pair (s.p[s] is t.p[t]).
struct Shared {
  int count = 0, s = -1, t = -1;
};
Shared shared_corners(const TriangleRef& s, const TriangleRef& t) {
  Shared out;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (s.id[i] == t.id[j]) out = {out.count + 1, i, j};
  return out;
}

bool has_corner(const TriangleRef& x, long id) { return x.id[0] == id || x.id[1] == id || x.id[2] == id; }

/// Of triangles sharing an edge: the corner of x whose id y lacks.
int apex(const TriangleRef& x, const TriangleRef& y) {
  for (int i = 0; i < 3; ++i)
    if (!has_corner(y, x.id[i])) return i;
  return -1;
}

Vec3 normal(const TriangleRef& s) { return (s.p[1] - s.p[0]).cross(s.p[2] - s.p[0]); }

/// The side of plane abc that d is on (+1 or -1), when the orientation computed in doubles
/// has that sign beyond any round-off; 0 when only exact arithmetic could tell. The error
/// of the double determinant is below 8 eps times its permanent (Shewchuk's bound for
/// orient3d, any summation order or fused multiply-add), and the permanent is at most the
/// product of the differences' 1-norms: the margin 2^-40 is 512 times that. Differences
/// outside [2^-200, 2^200] are left to exact arithmetic, so no product overflows and an
/// underflowing one errs by less than 2^-875, far below the margin.
int certain_side(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const Vec3 u = b - a, v = c - a, w = d - a;
  const double det = u.dot(v.cross(w));
  const double nu = u.lpNorm<1>(), nv = v.lpNorm<1>(), nw = w.lpNorm<1>();
  const auto usable = [](double n) { return n >= 0x1p-200 && n <= 0x1p200; };
  if (!usable(nu) || !usable(nv) || !usable(nw)) return 0;
  const double bound = 0x1p-40 * nu * nv * nw;
  return det > bound ? 1 : det < -bound ? -1 : 0;
}

/// Are t's corners other than the shared ones certainly on one side of s's plane? Then t
/// meets that plane, and so s, at most in the shared corners (or the shared edge).
bool plane_separates(const TriangleRef& s, const TriangleRef& t) {
  int side = 0;
  for (int k = 0; k < 3; ++k) {
    if (has_corner(s, t.id[k])) continue;
    const int o = certain_side(s.p[0], s.p[1], s.p[2], t.p[k]);
    if (o == 0 || (side != 0 && o != side)) return false;
    side = o;
  }
  return side != 0;
}

using Point2 = K::Point_2;
using Corners2 = std::array<Point2, 3>;

/// Is x strictly on one side of one of its edges' lines and all of y strictly on the other?
bool edge_line_separates(const Corners2& x, const Corners2& y) {
  const CGAL::Orientation o = CGAL::orientation(x[0], x[1], x[2]);  // the side of each edge's third corner
  if (o == CGAL::COLLINEAR) return false;
  for (int k = 0; k < 3; ++k) {
    const Point2 &a = x[k], &b = x[(k + 1) % 3];
    if (CGAL::orientation(a, b, y[0]) == -o && CGAL::orientation(a, b, y[1]) == -o &&
        CGAL::orientation(a, b, y[2]) == -o)
      return true;
  }
  return false;
}

/// Is u strictly outside the closed cone at v spanned by a and b (o = orientation(v, a, b),
/// not collinear)? With u - v = alpha (a - v) + beta (b - v), alpha and beta have the signs of
/// orientation(v, u, b) and orientation(v, a, u) times o: outside iff one is negative.
bool outside_cone(const Point2& v, const Point2& a, const Point2& b, CGAL::Orientation o, const Point2& u) {
  return CGAL::orientation(v, u, b) == -o || CGAL::orientation(v, a, u) == -o;
}

/// 2-D proofs that s and t meet at most in their shared corners, in the projection onto the
/// coordinate plane that drops the largest component of s's normal (any plane would be
/// sound; this one keeps s non-degenerate). A common point of the triangles projects to a
/// common point of the projections, and a projection that keeps a triangle non-degenerate
/// is one-to-one on its plane. So, exactly (CGAL's 2-D orientations, cheap where the 3-D
/// ones are zero):
/// - no shared corner: the projections separated by an edge's line;
/// - one shared corner v: both projections non-degenerate and their cones at v meeting only
///   in v (two 2-D cones with a common ray have a boundary ray of one inside the other, so:
///   each edge from v strictly outside the other cone); a common point then projects to v,
///   and only v does;
/// - a shared edge uw: the apexes strictly on opposite sides of uw, so in one plane the
///   triangles meet in uw only (and not in one plane they meet in uw only anyway).
bool apart_in_projection(const TriangleRef& s, const TriangleRef& t, const Shared& shared) {
  int k = 0;
  normal(s).cwiseAbs().maxCoeff(&k);
  const int i = (k + 1) % 3, j = (k + 2) % 3;
  const auto project = [&](const TriangleRef& x) {
    return Corners2{Point2(x.p[0][i], x.p[0][j]), Point2(x.p[1][i], x.p[1][j]), Point2(x.p[2][i], x.p[2][j])};
  };
  const Corners2 a = project(s), b = project(t);
  if (shared.count == 0) return edge_line_separates(a, b) || edge_line_separates(b, a);
  if (shared.count == 1) {
    const Point2& v = a[shared.s];
    const Point2 &a1 = a[(shared.s + 1) % 3], &a2 = a[(shared.s + 2) % 3];
    const Point2 &b1 = b[(shared.t + 1) % 3], &b2 = b[(shared.t + 2) % 3];
    const CGAL::Orientation oa = CGAL::orientation(v, a1, a2), ob = CGAL::orientation(v, b1, b2);
    return oa != CGAL::COLLINEAR && ob != CGAL::COLLINEAR && outside_cone(v, a1, a2, oa, b1) &&
           outside_cone(v, a1, a2, oa, b2) && outside_cone(v, b1, b2, ob, a1) && outside_cone(v, b1, b2, ob, a2);
  }
  const int sa = apex(s, t), ta = apex(t, s);
  const Point2 &u = a[(sa + 1) % 3], &w = a[(sa + 2) % 3];
  const CGAL::Orientation o = CGAL::orientation(u, w, a[sa]);
  return o != CGAL::COLLINEAR && CGAL::orientation(u, w, b[ta]) == -o;
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
  const Shared shared = shared_corners(s, t);
  if (shared.count >= 3) return true;
  // Cheap proofs first (a plane test in doubles, then 2-D orientations): CGAL's 3-D test
  // falls back to exact arithmetic, microseconds, wherever an orientation is exactly zero
  // (triangles in one plane, corners in another face's plane).
  if (plane_separates(s, t) || plane_separates(t, s) || apart_in_projection(s, t, shared)) return false;
  if (shared.count == 0) return CGAL::do_intersect(tri(s), tri(t));
  if (shared.count == 1) {
    // Both triangles are star-shaped from v; they meet beyond v iff the edge
    // opposite v in one of them meets the other triangle.
    const int si = shared.s, ti = shared.t;
    const Segment s_opp(pt(s.p[(si + 1) % 3]), pt(s.p[(si + 2) % 3]));
    const Segment t_opp(pt(t.p[(ti + 1) % 3]), pt(t.p[(ti + 2) % 3]));
    return CGAL::do_intersect(s_opp, tri(t)) || CGAL::do_intersect(t_opp, tri(s));
  }
  // Shared edge uw.
  const int sa = apex(s, t), ta = apex(t, s);
  const Point u = pt(s.p[(sa + 1) % 3]), w = pt(s.p[(sa + 2) % 3]);
  const Point a = pt(s.p[sa]), b = pt(t.p[ta]);
  if (CGAL::orientation(u, w, a, b) != CGAL::COPLANAR) return false;  // meet exactly in uw
  // Coplanar: legal only when the apexes lie strictly on opposite sides of uw.
  return CGAL::coplanar_orientation(u, w, a, b) != CGAL::NEGATIVE;
}

bool proven_apart_in_projection(const TriangleRef& s, const TriangleRef& t) {
  const Shared shared = shared_corners(s, t);
  return shared.count < 3 && apart_in_projection(s, t, shared);
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
