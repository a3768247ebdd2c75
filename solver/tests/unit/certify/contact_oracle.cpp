#include "contact_oracle.hpp"

#include <CGAL/CORE_Expr.h>
#include <CGAL/Simple_cartesian.h>
#include <CGAL/intersections.h>

#include <cmath>
#include <vector>

namespace eipc::test {

using Real = CORE::Expr;
using K = CGAL::Simple_cartesian<Real>;
using Int = CORE::BigInt;
using Poly = std::vector<Int>;  // integer coefficients, c[i] of t^i

struct OracleContact::Time {
  Real t;
};

namespace {

// Every double is m 2^e: scaled by 2^-E (E the smallest exponent of the 24
// coordinates) all coordinates are integers, and scaling changes no contact.
struct Scaled {
  std::array<std::array<Int, 3>, 4> a, b;  // at t = 0 and t = 1
};

Int to_int(double v, int e) {
  int ex = 0;
  const double m = std::frexp(v, &ex);  // v = m 2^ex, m has 53 bits
  const long mant = static_cast<long>(std::ldexp(m, 53));
  Int r(mant);
  const int shift = ex - 53 - e;  // >= 0
  mpz_t z;
  mpz_init(z);
  mpz_mul_2exp(z, r.get_mp(), static_cast<unsigned long>(shift));
  Int out(z);
  mpz_clear(z);
  return out;
}

Scaled scale(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1) {
  int e = 0;
  bool any = false;
  for (const auto* x : {&x0, &x1})
    for (const Vec3& v : *x)
      for (int k = 0; k < 3; ++k)
        if (v[k] != 0.0) {
          int ex = 0;
          std::frexp(v[k], &ex);
          e = any ? std::min(e, ex - 53) : ex - 53;
          any = true;
        }
  Scaled s;
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < 3; ++k) {
      s.a[i][k] = x0[i][k] == 0.0 ? Int(0) : to_int(x0[i][k], e);
      s.b[i][k] = x1[i][k] == 0.0 ? Int(0) : to_int(x1[i][k], e);
    }
  return s;
}

Poly add(const Poly& a, const Poly& b, int sign = 1) {
  Poly r(std::max(a.size(), b.size()), Int(0));
  for (std::size_t i = 0; i < a.size(); ++i) r[i] += a[i];
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (sign > 0) r[i] += b[i];
    else r[i] -= b[i];
  }
  return r;
}
Poly mul(const Poly& a, const Poly& b) {
  Poly r(a.size() + b.size() - 1, Int(0));
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < b.size(); ++j) r[i + j] += a[i] * b[j];
  return r;
}
using PVec = std::array<Poly, 3>;
PVec sub(const PVec& a, const PVec& b) { return {add(a[0], b[0], -1), add(a[1], b[1], -1), add(a[2], b[2], -1)}; }
PVec cross(const PVec& a, const PVec& b) {
  return {add(mul(a[1], b[2]), mul(a[2], b[1]), -1), add(mul(a[2], b[0]), mul(a[0], b[2]), -1),
          add(mul(a[0], b[1]), mul(a[1], b[0]), -1)};
}
Poly dot(const PVec& a, const PVec& b) { return add(add(mul(a[0], b[0]), mul(a[1], b[1])), mul(a[2], b[2])); }

/// Exact times in [0, 1] where p vanishes (none if p is identically zero).
void roots_in_unit(Poly p, std::vector<Real>& out) {
  while (!p.empty() && p.back() == 0) p.pop_back();
  if (p.size() < 2) return;
  CORE::Polynomial<Int> q(static_cast<int>(p.size()) - 1, p.data());
  q.sqFreePart();
  if (q.getTrueDegree() < 1) return;
  CORE::Sturm<Int> sturm(q);
  CORE::BFVecInterval intervals;
  sturm.isolateRoots(CORE::BigFloat(0), CORE::BigFloat(1), intervals);
  for (const auto& iv : intervals) out.push_back(iv.first == iv.second ? Real(iv.first) : CORE::rootOf(q, iv));
}

struct Stencil {
  std::array<PVec, 4> x;  // moving points (scaled)
  Scaled s;
  K::Point_3 at(int i, const Real& t) const {
    auto c = [&](int k) { return Real(s.a[i][k]) + t * (Real(s.b[i][k]) - Real(s.a[i][k])); };
    return {c(0), c(1), c(2)};
  }
};

Stencil stencil(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1) {
  Stencil st{{}, scale(x0, x1)};
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < 3; ++k) st.x[i][k] = {st.s.a[i][k], st.s.b[i][k] - st.s.a[i][k]};
  return st;
}

/// Where point x starts or stops touching segment uw: x meets an end point
/// (coordinates of x - u), becomes collinear (components of (x-u) x (w-u)), or
/// its projection crosses an end ((x-u).(w-u), (x-w).(u-w)).
void point_segment_events(const Stencil& st, int x, int u, int w, std::vector<Poly>& out) {
  const PVec xu = sub(st.x[x], st.x[u]), wu = sub(st.x[w], st.x[u]);
  for (const Poly& c : xu) out.push_back(c);
  for (const Poly& c : cross(xu, wu)) out.push_back(c);
  out.push_back(dot(xu, wu));
  out.push_back(dot(sub(st.x[x], st.x[w]), sub(st.x[u], st.x[w])));
}

/// Candidate times: 0, 1 and every root in [0, 1] of the polynomials at which the
/// contact set can begin: the point-segment events of every vertex against every
/// segment it can touch, the coplanarity of the four points, and the in-plane side
/// tests ((x_b - x_a) x (x_c - x_a)) . normal of the interior contact.
std::vector<Real> candidates(const Stencil& st, const std::vector<std::array<int, 3>>& point_segments,
                             const std::vector<std::array<int, 3>>& sides, const std::array<int, 4>& normal_from) {
  std::vector<Poly> polys;
  for (const auto& e : point_segments) point_segment_events(st, e[0], e[1], e[2], polys);
  polys.push_back(dot(cross(sub(st.x[1], st.x[0]), sub(st.x[2], st.x[0])), sub(st.x[3], st.x[0])));
  const PVec normal = cross(sub(st.x[normal_from[1]], st.x[normal_from[0]]),
                            sub(st.x[normal_from[3]], st.x[normal_from[2]]));
  for (const auto& s : sides)
    polys.push_back(dot(cross(sub(st.x[s[1]], st.x[s[0]]), sub(st.x[s[2]], st.x[s[0]])), normal));
  std::vector<Real> times{Real(0), Real(1)};
  for (const Poly& p : polys) roots_in_unit(p, times);
  return times;
}

bool on_segment(const K::Point_3& p, const K::Point_3& a, const K::Point_3& b) {
  return a == b ? p == a : K::Segment_3(a, b).has_on(p);
}

bool touches_point_triangle(const Stencil& st, const Real& t) {
  const K::Point_3 p = st.at(0, t), a = st.at(1, t), b = st.at(2, t), c = st.at(3, t);
  if (!CGAL::collinear(a, b, c)) return CGAL::do_intersect(p, K::Triangle_3(a, b, c));
  return on_segment(p, a, b) || on_segment(p, b, c) || on_segment(p, c, a);
}

bool touches_edge_edge(const Stencil& st, const Real& t) {
  const K::Point_3 p0 = st.at(0, t), p1 = st.at(1, t), q0 = st.at(2, t), q1 = st.at(3, t);
  if (p0 == p1) return on_segment(p0, q0, q1);
  if (q0 == q1) return on_segment(q0, p0, p1);
  return CGAL::do_intersect(K::Segment_3(p0, p1), K::Segment_3(q0, q1));
}

template <class Touches>
OracleContact earliest(const std::vector<Real>& times, Touches touches) {
  OracleContact out;
  for (const Real& t : times) {
    if (out.touches && !(t < out.first->t)) continue;
    if (touches(t)) {
      out.touches = true;
      out.first = std::make_shared<OracleContact::Time>(OracleContact::Time{t});
    }
  }
  return out;
}

}  // namespace

bool OracleContact::first_time_within(double lo, double hi) const {
  return touches && Real(lo) <= first->t && first->t <= Real(hi);
}

OracleContact oracle_point_triangle(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1) {
  const Stencil st = stencil(x0, x1);
  // p = 0 against the edges of a = 1, b = 2, c = 3; sides of p relative to each edge.
  const auto times = candidates(st, {{0, 1, 2}, {0, 2, 3}, {0, 3, 1}}, {{1, 2, 0}, {2, 3, 0}, {3, 1, 0}}, {1, 2, 1, 3});
  return earliest(times, [&](const Real& t) { return touches_point_triangle(st, t); });
}

OracleContact oracle_edge_edge(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1) {
  const Stencil st = stencil(x0, x1);
  // Every end point against the other edge; sides of each end point relative to the other edge.
  const auto times = candidates(st, {{0, 2, 3}, {1, 2, 3}, {2, 0, 1}, {3, 0, 1}},
                                {{0, 1, 2}, {0, 1, 3}, {2, 3, 0}, {2, 3, 1}}, {0, 1, 2, 3});
  return earliest(times, [&](const Real& t) { return touches_edge_edge(st, t); });
}

}  // namespace eipc::test
