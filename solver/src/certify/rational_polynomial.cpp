// Exact polynomial arithmetic over the rationals and Sturm-sequence root
// isolation (see rational_polynomial.hpp). Degrees stay small (at most 16 for
// the contact conditions), so plain dense coefficients and Euclid's algorithm suffice.
#include "rational_polynomial.hpp"

#include <algorithm>
#include <utility>

namespace eipc::certify {

RationalPolynomial::RationalPolynomial(std::vector<Rational> coefficients) : c_(std::move(coefficients)) { trim(); }


void RationalPolynomial::trim() {
  while (!c_.empty() && sgn(c_.back()) == 0) c_.pop_back();
  integral_ = true;
  for (const auto& c : c_) integral_ = integral_ && c.get_den() == 1;
}

int RationalPolynomial::sign_at(const Rational& t) const {
  if (!integral_) return sgn((*this)(t));
  if (c_.empty()) return 0;
  const mpz_class &n = t.get_num(), &d = t.get_den();
  mpz_class v = c_.back().get_num(), d_power = 1;
  for (int i = degree() - 1; i >= 0; --i) {
    d_power *= d;
    v = v * n + c_[i].get_num() * d_power;
  }
  return sgn(v);
}

RationalPolynomial RationalPolynomial::primitive() const {
  if (is_zero()) return *this;
  mpz_class denominators = 1, common = 0;
  for (const auto& c : c_) denominators = lcm(denominators, c.get_den());
  std::vector<Rational> p;
  for (const auto& c : c_) {
    p.emplace_back(c.get_num() * (denominators / c.get_den()));
    common = gcd(common, p.back().get_num());
  }
  for (auto& c : p) c /= common;
  return RationalPolynomial(std::move(p));
}

Rational RationalPolynomial::operator()(const Rational& t) const {
  Rational v = 0;
  for (auto it = c_.rbegin(); it != c_.rend(); ++it) v = v * t + *it;
  return v;
}

RationalPolynomial RationalPolynomial::derivative() const {
  std::vector<Rational> d;
  for (std::size_t i = 1; i < c_.size(); ++i) d.push_back(c_[i] * static_cast<long>(i));
  return RationalPolynomial(std::move(d));
}

RationalPolynomial operator+(const RationalPolynomial& a, const RationalPolynomial& b) {
  std::vector<Rational> s(std::max(a.c_.size(), b.c_.size()));
  for (std::size_t i = 0; i < a.c_.size(); ++i) s[i] += a.c_[i];
  for (std::size_t i = 0; i < b.c_.size(); ++i) s[i] += b.c_[i];
  return RationalPolynomial(std::move(s));
}

RationalPolynomial RationalPolynomial::operator-() const {
  std::vector<Rational> n(c_);
  for (auto& x : n) x = -x;
  return RationalPolynomial(std::move(n));
}

RationalPolynomial operator-(const RationalPolynomial& a, const RationalPolynomial& b) { return a + (-b); }

RationalPolynomial operator*(const RationalPolynomial& a, const RationalPolynomial& b) {
  if (a.is_zero() || b.is_zero()) return {};
  std::vector<Rational> p(a.c_.size() + b.c_.size() - 1);
  for (std::size_t i = 0; i < a.c_.size(); ++i)
    for (std::size_t j = 0; j < b.c_.size(); ++j) p[i + j] += a.c_[i] * b.c_[j];
  return RationalPolynomial(std::move(p));
}

namespace {
/// Long division: {quotient, remainder}.
std::pair<RationalPolynomial, RationalPolynomial> divide(const RationalPolynomial& a, const RationalPolynomial& b) {
  std::vector<Rational> r;
  for (int i = 0; i <= a.degree(); ++i) r.push_back(a.coefficient(i));
  const int db = b.degree();
  std::vector<Rational> q(std::max(0, a.degree() - db + 1));
  for (int i = a.degree(); i >= db; --i) {
    if (sgn(r[i]) == 0) continue;
    const Rational f = r[i] / b.coefficient(db);
    q[i - db] = f;
    for (int j = 0; j <= db; ++j) r[i - db + j] -= f * b.coefficient(j);
  }
  return {RationalPolynomial(std::move(q)), RationalPolynomial(std::move(r))};
}
}  // namespace

RationalPolynomial RationalPolynomial::remainder(const RationalPolynomial& b) const {
  if (!integral_ || !b.integral_) return divide(*this, b).second;
  // Pseudo-division in integers (no gcds): each step scales by b's leading
  // coefficient; the product of those scales is made positive at the end.
  std::vector<mpz_class> r;
  for (const auto& c : c_) r.push_back(c.get_num());
  const int db = b.degree();
  const mpz_class& lead = b.c_.back().get_num();
  bool negative = false;
  for (int i = degree(); i >= db; --i) {
    if (sgn(r[i]) == 0) continue;
    const mpz_class f = r[i];
    for (auto& x : r) x *= lead;
    negative ^= sgn(lead) < 0;
    for (int j = 0; j <= db; ++j) r[i - db + j] -= f * b.c_[j].get_num();
  }
  std::vector<Rational> out;
  for (auto& x : r) out.emplace_back(negative ? mpz_class(-x) : x);
  return RationalPolynomial(std::move(out));
}
RationalPolynomial RationalPolynomial::quotient(const RationalPolynomial& b) const { return divide(*this, b).first; }

RationalPolynomial gcd(RationalPolynomial a, RationalPolynomial b) {
  while (!b.is_zero()) {
    RationalPolynomial r = a.remainder(b);
    a = std::move(b);
    b = r.primitive();  // keeps the coefficients from growing
  }
  return a.primitive();
}

RationalPolynomial square_free_part(const RationalPolynomial& p) {
  if (p.degree() <= 0) return p.primitive();
  return p.quotient(gcd(p, p.derivative())).primitive();
}

SturmSequence::SturmSequence(const RationalPolynomial& square_free) {
  seq_.push_back(square_free);
  seq_.push_back(square_free.derivative());
  // Scaling by a positive constant keeps the sign variations and the coefficients small.
  seq_.back() = seq_.back().primitive();
  while (!seq_.back().is_zero() && seq_.back().degree() > 0) {
    const RationalPolynomial r = seq_[seq_.size() - 2].remainder(seq_.back());
    if (r.is_zero()) break;
    seq_.push_back(-r.primitive());
  }
}

int SturmSequence::variations(const Rational& x) const {
  int count = 0, last = 0;
  for (const auto& s : seq_) {
    const int v = s.sign_at(x);
    if (v == 0) continue;
    if (last != 0 && v != last) ++count;
    last = v;
  }
  return count;
}

void halve(RootInterval& root, const RationalPolynomial& p) {
  if (root.exact()) return;
  const Rational mid = (root.lo + root.hi) / 2;
  const int s = p.sign_at(mid);
  if (s == 0) root.lo = root.hi = mid;
  else if (s == p.sign_at(root.lo)) root.lo = mid;
  else root.hi = mid;
}

namespace {
/// Roots in (a, b] of the square-free p, increasing.
void isolate(const SturmSequence& sturm, const Rational& a, const Rational& b, std::vector<RootInterval>& out) {
  const RationalPolynomial& p = sturm.polynomial();
  const int n = sturm.roots_in(a, b);
  if (n == 0) return;
  if (n == 1 && p.sign_at(b) == 0) { out.push_back({b, b}); return; }
  if (n == 1 && p.sign_at(a) != 0) { out.push_back({a, b}); return; }
  const Rational m = (a + b) / 2;
  isolate(sturm, a, m, out);
  isolate(sturm, m, b, out);
}
}  // namespace

std::vector<RootInterval> roots_in_unit_interval(const RationalPolynomial& p) {
  std::vector<RootInterval> roots;
  if (p.sign_at(0) == 0) roots.push_back({0, 0});
  isolate(SturmSequence(p), 0, 1, roots);
  // Bisection leaves neighbours sharing an end point; narrow them apart.
  for (std::size_t i = 0; i + 1 < roots.size(); ++i)
    while (roots[i].hi >= roots[i + 1].lo) {
      halve(roots[i], p);
      halve(roots[i + 1], p);
    }
  return roots;
}

int sign_at_root(const RationalPolynomial& q, const RationalPolynomial& p, RootInterval& root) {
  if (root.exact()) return q.sign_at(root.lo);
  if (q.degree() <= 0) return q.is_zero() ? 0 : sgn(q.coefficient(0));
  const RationalPolynomial common = gcd(p, q);
  if (common.degree() >= 1 && common.sign_at(root.lo) * common.sign_at(root.hi) < 0) return 0;
  // q does not vanish at the root: narrow until q has no root left in (lo, hi].
  const SturmSequence q_roots(square_free_part(q));
  while (!root.exact() && q_roots.roots_in(root.lo, root.hi) > 0) halve(root, p);
  return q.sign_at(root.hi);
}

}  // namespace eipc::certify
