#include "contact_conditions.hpp"

#include "axis_plane_contact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace eipc::certify {
namespace {

/// A point moving on a straight line, coordinate by coordinate.
struct MovingVector {
  std::array<IntegerPolynomial, 3> c;
};

/// x 2^scale_exponent, an integer (the exponent makes it one).
Integer scaled(double x, long scale_exponent) {
  Rational r(x);
  mpq_mul_2exp(r.get_mpq_t(), r.get_mpq_t(), static_cast<mp_bitcnt_t>(scale_exponent));
  return r.get_num();  // the denominator is 1
}

MovingVector moving(const Vec3& a, const Vec3& b, long scale_exponent) {
  MovingVector m;
  for (int k = 0; k < 3; ++k) {
    const Integer ia = scaled(a[k], scale_exponent), ib = scaled(b[k], scale_exponent);
    m.c[k] = IntegerPolynomial({ia, ib - ia});
  }
  return m;
}

MovingVector operator-(const MovingVector& a, const MovingVector& b) {
  return {{a.c[0] - b.c[0], a.c[1] - b.c[1], a.c[2] - b.c[2]}};
}
MovingVector cross(const MovingVector& a, const MovingVector& b) {
  return {{a.c[1] * b.c[2] - a.c[2] * b.c[1], a.c[2] * b.c[0] - a.c[0] * b.c[2], a.c[0] * b.c[1] - a.c[1] * b.c[0]}};
}
IntegerPolynomial dot(const MovingVector& a, const MovingVector& b) {
  return a.c[0] * b.c[0] + a.c[1] * b.c[1] + a.c[2] * b.c[2];
}

/// The four moving points, every coordinate scaled by one power of two that makes
/// them all integers: the conditions are homogeneous in the coordinates (built from
/// differences), so no sign changes, and the polynomials have integer coefficients.
std::array<MovingVector, 4> motion(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1) {
  int lowest = 0;  // smallest exponent of a coordinate's last mantissa bit
  for (const auto* x : {&x0, &x1})
    for (const Vec3& v : *x)
      for (int k = 0; k < 3; ++k)
        if (v[k] != 0.0) {
          int e = 0;
          std::frexp(v[k], &e);
          lowest = std::min(lowest, e - std::numeric_limits<double>::digits);
        }
  std::array<MovingVector, 4> x;
  for (int i = 0; i < 4; ++i) x[i] = moving(x0[i], x1[i], -lowest);
  return x;
}

/// 2-D orientation of (p, a, b) in the coordinates other than `axis`.
IntegerPolynomial orientation(const MovingVector& p, const MovingVector& a, const MovingVector& b, int axis) {
  const int i = (axis + 1) % 3, j = (axis + 2) % 3;
  const MovingVector u = a - p, w = b - p;
  return u.c[i] * w.c[j] - u.c[j] * w.c[i];
}

/// p equals u, or p lies on the segment (u, w]: together, p on the closed segment [u, w].
void point_on_segment(const MovingVector& p, const MovingVector& u, const MovingVector& w,
                      std::vector<SignConditions>& out) {
  const MovingVector pu = p - u, wu = w - u;
  out.push_back({{pu.c[0], pu.c[1], pu.c[2]}, {}, {}});
  const MovingVector side = cross(pu, wu);
  out.push_back({{side.c[0], side.c[1], side.c[2]}, {dot(pu, wu)}, {dot(w - p, wu)}});
}

/// Round toward -inf / +inf.
double down(const Rational& r) {
  const double d = r.get_d();  // truncates toward zero
  return Rational(d) <= r ? d : std::nextafter(d, -std::numeric_limits<double>::infinity());
}
double up(const Rational& r) {
  const double d = r.get_d();
  return Rational(d) >= r ? d : std::nextafter(d, std::numeric_limits<double>::infinity());
}

}  // namespace

std::vector<SignConditions> point_triangle_contact(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1) {
  const auto [p, a, b, c] = motion(x0, x1);
  const MovingVector n = cross(b - a, c - a);
  std::vector<SignConditions> out;
  const std::array<const MovingVector*, 3> v{&a, &b, &c};
  SignConditions inside{{dot(n, p - a)}, {}, {}};
  for (int k = 0; k < 3; ++k) {
    const MovingVector& u = *v[k];
    const MovingVector& w = *v[(k + 1) % 3];
    inside.positive.push_back(dot(cross(w - u, p - u), n));
    point_on_segment(p, u, w, out);
  }
  out.push_back(std::move(inside));
  return out;
}

std::vector<SignConditions> edge_edge_contact(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1) {
  const auto [p0, p1, q0, q1] = motion(x0, x1);
  std::vector<SignConditions> out;
  point_on_segment(p0, q0, q1, out);
  point_on_segment(p1, q0, q1, out);
  point_on_segment(q0, p0, p1, out);
  point_on_segment(q1, p0, p1, out);
  const int axis = shared_plane_axis(x0, x1);
  if (axis >= 0) {
    // In a coordinate plane throughout: strictly crossing is each edge's ends strictly on
    // opposite sides of the other's line (two strict 2-D conditions), an open set of
    // times. Where it starts after t = 0, the distance (continuous, zero on the set) is
    // zero too, but the edges do not cross strictly there: an end point is on the other
    // edge, which the conditions above already catch at that time or earlier. So the
    // crossing matters only at t = 0 (the zero polynomial t: nothing else is asked).
    out.push_back({{IntegerPolynomial({Integer(0), Integer(1)})},
                   {-(orientation(p0, p1, q0, axis) * orientation(p0, p1, q1, axis)),
                    -(orientation(q0, q1, p0, axis) * orientation(q0, q1, p1, axis))},
                   {}});
    return out;
  }
  const MovingVector dp = p1 - p0, dq = q1 - q0, m = cross(dp, dq);
  const IntegerPolynomial coplanar = dot(cross(dp, q0 - p0), q1 - p0);
  out.push_back({{coplanar},
                 {-dot(cross(dp, q0 - p0), m), dot(cross(dp, q1 - p0), m), dot(cross(dq, p0 - q0), m),
                  -dot(cross(dq, p1 - q0), m)},
                 {}});
  return out;
}

std::array<double, 2> outward(const Rational& lo, const Rational& hi) { return {down(lo), up(hi)}; }

std::optional<std::array<double, 2>> earliest_contact(const std::vector<SignConditions>& alternatives) {
  // min over the alternatives of their earliest times lies in [min lo, min hi].
  std::optional<std::array<double, 2>> bracket;
  const Rational width(1, 1L << 50);
  for (const auto& conditions : alternatives) {
    std::optional<ExactTime> t = earliest_time(conditions);
    if (!t) continue;
    t->narrow(width);
    const std::array<double, 2> b = outward(t->root.lo, t->root.hi);
    if (!bracket) bracket = b;
    else bracket = std::array<double, 2>{std::min((*bracket)[0], b[0]), std::min((*bracket)[1], b[1])};
  }
  return bracket;
}

}  // namespace eipc::certify
