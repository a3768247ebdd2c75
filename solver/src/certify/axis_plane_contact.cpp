#include "axis_plane_contact.hpp"

#include "interval_vectors.hpp"

namespace eipc::certify {
namespace {

using namespace intervals;

/// Edge-edge (p0, p1, q0, q1): each end point with the other edge.
constexpr std::array<std::array<int, 3>, 4> edge_ends{{{0, 2, 3}, {1, 2, 3}, {2, 0, 1}, {3, 0, 1}}};

/// Do vertices i, j, k have exactly the same coordinate `axis` at t = 0 and at t = 1?
/// Then x(t)_axis = c for every t, for all three (straight motion between equal values).
bool share_plane(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1, int i, int j, int k, int axis) {
  const double c = x0[i][axis];
  return x1[i][axis] == c && x0[j][axis] == c && x1[j][axis] == c && x0[k][axis] == c && x1[k][axis] == c;
}

/// 2-D orientation of (p, a, b) in the coordinates other than `axis`.
I orientation(const IV3& p, const IV3& a, const IV3& b, int axis) {
  const int i = (axis + 1) % 3, j = (axis + 2) % 3;
  return (a[i] - p[i]) * (b[j] - p[j]) - (a[j] - p[j]) * (b[i] - p[i]);
}

/// 2-D cross and dot products in the coordinates other than `axis`.
I cross2(const IV3& u, const IV3& w, int axis) {
  const int i = (axis + 1) % 3, j = (axis + 2) % 3;
  return u[i] * w[j] - u[j] * w[i];
}
I dot2(const IV3& u, const IV3& w, int axis) {
  const int i = (axis + 1) % 3, j = (axis + 2) % 3;
  return u[i] * w[i] + u[j] * w[j];
}

/// product(u(t), w(t)) of two vectors moving linearly over [t0, t1] (u0, u1, w0, w1 at its
/// ends) is a quadratic; these are its Bernstein coefficients there, the middle one doubled.
template <class Product>
std::array<I, 3> bernstein(Product product, const IV3& u0, const IV3& u1, const IV3& w0, const IV3& w1) {
  return {product(u0, w0), product(u0, w1) + product(u1, w0), product(u1, w1)};
}
bool all_positive(const std::array<I, 3>& b) { return b[0].inf() > 0 && b[1].inf() > 0 && b[2].inf() > 0; }
bool all_negative(const std::array<I, 3>& b) { return b[0].sup() < 0 && b[1].sup() < 0 && b[2].sup() < 0; }

}  // namespace

PlanarPointSegments planar_point_segments(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1,
                                          bool point_triangle) {
  static constexpr std::array<std::array<int, 3>, 3> triangle{{{0, 1, 2}, {0, 2, 3}, {0, 3, 1}}};
  PlanarPointSegments out;
  auto consider = [&](const std::array<int, 3>& t) {
    for (int axis = 0; axis < 3; ++axis)
      if (share_plane(x0, x1, t[0], t[1], t[2], axis)) {
        out.items[out.size++] = {t[0], t[1], t[2], axis};
        return;  // one plane suffices for the proof
      }
  };
  if (point_triangle) for (const auto& t : triangle) consider(t);
  else for (const auto& t : edge_ends) consider(t);
  return out;
}

int shared_plane_axis(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1) {
  for (int axis = 0; axis < 3; ++axis)
    if (share_plane(x0, x1, 0, 1, 2, axis) && share_plane(x0, x1, 0, 1, 3, axis)) return axis;
  return -1;
}

namespace {

/// The four vertices' enclosures at the instant t (their own values at t = 0 and t = 1).
std::array<IV3, 4> at_instant(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1, double t) {
  auto iv = [](const Vec3& v) { return IV3{I(v.x()), I(v.y()), I(v.z())}; };
  std::array<IV3, 4> x;
  for (int i = 0; i < 4; ++i) x[i] = t == 0.0 ? iv(x0[i]) : t == 1.0 ? iv(x1[i]) : position(x0[i], x1[i], I(t));
  return x;
}

/// Is point e[0] proven never on the closed segment e[1]e[2] between the instants where the
/// vertices are x and y (moving linearly in the plane x_axis = c)? Throughout, its 2-D
/// orientation is non-zero, or its projection onto the segment's line lies strictly before
/// one end (Bernstein coefficients of these quadratics in t).
bool never_meets(const std::array<IV3, 4>& x, const std::array<IV3, 4>& y, const std::array<int, 3>& e, int axis) {
  const auto cross = [axis](const IV3& u, const IV3& w) { return cross2(u, w, axis); };
  const auto dot = [axis](const IV3& u, const IV3& w) { return dot2(u, w, axis); };
  const IV3 &p0 = x[e[0]], &a0 = x[e[1]], &b0 = x[e[2]], &p1 = y[e[0]], &a1 = y[e[1]], &b1 = y[e[2]];
  const auto side = bernstein(cross, a0 - p0, a1 - p1, b0 - p0, b1 - p1);  // the orientation of (p, a, b)
  if (all_positive(side) || all_negative(side)) return true;
  const IV3 ab0 = b0 - a0, ab1 = b1 - a1;
  return all_negative(bernstein(dot, p0 - a0, p1 - a1, ab0, ab1)) ||  // before a
         all_negative(bernstein(dot, b0 - p0, b1 - p1, ab0, ab1));    // after b
}

/// Edges (p0, p1, q0, q1) in the plane x_axis = c, at one instant: the 2-D orientations of
/// q0 and q1 against p0p1, then of p0 and p1 against q0q1.
std::array<I, 4> end_sides(const std::array<IV3, 4>& x, int axis) {
  return {orientation(x[2], x[0], x[1], axis), orientation(x[3], x[0], x[1], axis),
          orientation(x[0], x[2], x[3], axis), orientation(x[1], x[2], x[3], axis)};
}

bool same_strict_sign(const I& u, const I& w) { return (u.inf() > 0 && w.inf() > 0) || (u.sup() < 0 && w.sup() < 0); }
bool opposite_strict_signs(const I& u, const I& w) {
  return (u.inf() > 0 && w.sup() < 0) || (u.sup() < 0 && w.inf() > 0);
}

}  // namespace

bool edges_apart_in_plane(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1, int axis, double t0,
                          double t1) {
  const auto x = at_instant(x0, x1, t0), y = at_instant(x0, x1, t1);
  for (const auto& e : edge_ends)
    if (!never_meets(x, y, e, axis)) return false;
  const auto side = end_sides(x, axis);
  return same_strict_sign(side[0], side[1]) || same_strict_sign(side[2], side[3]);
}

bool edges_cross_in_plane(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1, int axis, double t) {
  const auto side = end_sides(at_instant(x0, x1, t), axis);
  return opposite_strict_signs(side[0], side[1]) && opposite_strict_signs(side[2], side[3]);
}

int side_in_plane(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1, const PlanarPointSegment& s, double t) {
  const int i = (s.axis + 1) % 3, j = (s.axis + 2) % 3;
  const I it(t);
  auto at = [&](int v, int k) { return t == 0.0 ? I(x0[v][k]) : t == 1.0 ? I(x1[v][k]) : I(x0[v][k]) + it * (I(x1[v][k]) - I(x0[v][k])); };
  const I pi = at(s.point, i), pj = at(s.point, j);
  const I o = (at(s.a, i) - pi) * (at(s.b, j) - pj) - (at(s.a, j) - pj) * (at(s.b, i) - pi);
  return o.inf() > 0 ? 1 : o.sup() < 0 ? -1 : 0;
}

bool meets_in_plane(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1, const PlanarPointSegment& s,
                    double t0, double t1) {
  if (side_in_plane(x0, x1, s, t0) * side_in_plane(x0, x1, s, t1) >= 0) return false;
  // Zero orientation in the plane: p on the line ab (the axis components of the
  // differences are exactly zero). Strictly between a and b: on the open segment.
  const I t(t0, t1);
  const IV3 p = position(x0[s.point], x1[s.point], t), a = position(x0[s.a], x1[s.a], t),
            b = position(x0[s.b], x1[s.b], t);
  const IV3 ab = b - a;
  return dot(p - a, ab).inf() > 0 && dot(b - p, ab).inf() > 0;
}

}  // namespace eipc::certify
