#include "contact_oracle.hpp"

#include <CGAL/CORE_Expr.h>
#include <CGAL/Simple_cartesian.h>
#include <CGAL/squared_distance_3.h>

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

/// Candidate times: 0, 1 and the roots of the boundary polynomials of the contact set.
std::vector<Real> candidates(const Stencil& st, const std::vector<std::array<int, 4>>& side_tests) {
  std::vector<Poly> polys;
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) {
      const PVec dij = sub(st.x[j], st.x[i]);
      for (int k = 0; k < 3; ++k) polys.push_back(dij[k]);  // coincidence
      for (int l = 0; l < 4; ++l) {
        if (l == i || l == j) continue;
        const PVec dil = sub(st.x[l], st.x[i]);
        for (const Poly& c : cross(dij, dil)) polys.push_back(c);  // collinearity
        polys.push_back(dot(dij, dil));                             // projection on a segment
        polys.push_back(dot(sub(st.x[l], st.x[j]), sub(st.x[i], st.x[j])));
      }
    }
  polys.push_back(dot(cross(sub(st.x[1], st.x[0]), sub(st.x[2], st.x[0])), sub(st.x[3], st.x[0])));  // coplanar
  // In-plane side tests ((x_b - x_a) x (x_c - x_a)) . normal, the normal from the pair's own two directions.
  for (const auto& s : side_tests) {
    const PVec normal = cross(sub(st.x[s[1]], st.x[s[0]]), sub(st.x[s[3]], st.x[s[2]]));
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b)
        for (int c = 0; c < 4; ++c)
          if (a != b && a != c && b != c)
            polys.push_back(dot(cross(sub(st.x[b], st.x[a]), sub(st.x[c], st.x[a])), normal));
  }
  std::vector<Real> times{Real(0), Real(1)};
  for (const Poly& p : polys) roots_in_unit(p, times);
  return times;
}

Real point_segment(const K::Point_3& p, const K::Point_3& a, const K::Point_3& b) {
  if (a == b) return CGAL::squared_distance(p, a);
  return CGAL::squared_distance(p, K::Segment_3(a, b));
}

bool touches_point_triangle(const Stencil& st, const Real& t) {
  const K::Point_3 p = st.at(0, t), a = st.at(1, t), b = st.at(2, t), c = st.at(3, t);
  if (!CGAL::collinear(a, b, c)) return CGAL::squared_distance(p, K::Triangle_3(a, b, c)) == 0;
  return point_segment(p, a, b) == 0 || point_segment(p, b, c) == 0 || point_segment(p, c, a) == 0;
}

bool touches_edge_edge(const Stencil& st, const Real& t) {
  const K::Point_3 p0 = st.at(0, t), p1 = st.at(1, t), q0 = st.at(2, t), q1 = st.at(3, t);
  if (p0 == p1) return point_segment(p0, q0, q1) == 0;
  if (q0 == q1) return point_segment(q0, p0, p1) == 0;
  return CGAL::squared_distance(K::Segment_3(p0, p1), K::Segment_3(q0, q1)) == 0;
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
  return earliest(candidates(st, {{1, 2, 1, 3}}), [&](const Real& t) { return touches_point_triangle(st, t); });
}

OracleContact oracle_edge_edge(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1) {
  const Stencil st = stencil(x0, x1);
  return earliest(candidates(st, {{0, 1, 2, 3}}), [&](const Real& t) { return touches_edge_edge(st, t); });
}

}  // namespace eipc::test
