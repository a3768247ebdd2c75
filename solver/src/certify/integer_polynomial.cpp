// Exact polynomial arithmetic over the integers and Sturm-sequence root
// isolation (see integer_polynomial.hpp). Degrees stay small (at most 16 for
// the contact conditions), so plain dense coefficients and Euclid's algorithm suffice.
#include "integer_polynomial.hpp"

#include <algorithm>
#include <utility>

namespace eipc::certify {

IntegerPolynomial::IntegerPolynomial(std::vector<Integer> coefficients) : c_(std::move(coefficients)) { trim(); }

void IntegerPolynomial::trim() {
  while (!c_.empty() && sgn(c_.back()) == 0) c_.pop_back();
}

int IntegerPolynomial::sign_at(const Rational& t) const {
  if (c_.empty()) return 0;
  const mpz_class &n = t.get_num(), &d = t.get_den();
  mpz_class v = c_.back(), d_power = 1;
  for (int i = degree() - 1; i >= 0; --i) {
    d_power *= d;
    v *= n;
    mpz_addmul(v.get_mpz_t(), c_[i].get_mpz_t(), d_power.get_mpz_t());
  }
  return sgn(v);
}

IntegerPolynomial IntegerPolynomial::primitive() const {
  if (is_zero()) return *this;
  mpz_class common = 0;
  for (const auto& c : c_) {
    mpz_gcd(common.get_mpz_t(), common.get_mpz_t(), c.get_mpz_t());
    if (common == 1) return *this;
  }
  std::vector<Integer> p(c_.size());
  for (std::size_t i = 0; i < c_.size(); ++i) mpz_divexact(p[i].get_mpz_t(), c_[i].get_mpz_t(), common.get_mpz_t());
  return IntegerPolynomial(std::move(p));
}

IntegerPolynomial IntegerPolynomial::derivative() const {
  std::vector<Integer> d;
  for (std::size_t i = 1; i < c_.size(); ++i) d.push_back(c_[i] * static_cast<long>(i));
  return IntegerPolynomial(std::move(d));
}

IntegerPolynomial operator+(const IntegerPolynomial& a, const IntegerPolynomial& b) {
  std::vector<Integer> s(std::max(a.c_.size(), b.c_.size()));
  for (std::size_t i = 0; i < a.c_.size(); ++i) s[i] += a.c_[i];
  for (std::size_t i = 0; i < b.c_.size(); ++i) s[i] += b.c_[i];
  return IntegerPolynomial(std::move(s));
}

IntegerPolynomial IntegerPolynomial::operator-() const {
  std::vector<Integer> n(c_);
  for (auto& x : n) x = -x;
  return IntegerPolynomial(std::move(n));
}

IntegerPolynomial operator-(const IntegerPolynomial& a, const IntegerPolynomial& b) {
  std::vector<Integer> s(std::max(a.c_.size(), b.c_.size()));
  for (std::size_t i = 0; i < a.c_.size(); ++i) s[i] += a.c_[i];
  for (std::size_t i = 0; i < b.c_.size(); ++i) s[i] -= b.c_[i];
  return IntegerPolynomial(std::move(s));
}

IntegerPolynomial operator*(const IntegerPolynomial& a, const IntegerPolynomial& b) {
  if (a.is_zero() || b.is_zero()) return {};
  std::vector<Integer> p(a.c_.size() + b.c_.size() - 1);
  for (std::size_t i = 0; i < a.c_.size(); ++i)
    for (std::size_t j = 0; j < b.c_.size(); ++j)
      mpz_addmul(p[i + j].get_mpz_t(), a.c_[i].get_mpz_t(), b.c_[j].get_mpz_t());
  return IntegerPolynomial(std::move(p));
}

IntegerPolynomial IntegerPolynomial::remainder(const IntegerPolynomial& b) const {
  // Pseudo-division (no gcds): each step scales by b's leading coefficient; the
  // product of those scales is made positive at the end.
  std::vector<Integer> r(c_);
  const int db = b.degree();
  const mpz_class& lead = b.c_.back();
  bool negative = false;
  for (int i = degree(); i >= db; --i) {
    if (sgn(r[i]) == 0) continue;
    const mpz_class f = r[i];
    for (auto& x : r) x *= lead;
    negative ^= sgn(lead) < 0;
    for (int j = 0; j <= db; ++j) mpz_submul(r[i - db + j].get_mpz_t(), f.get_mpz_t(), b.c_[j].get_mpz_t());
  }
  if (negative)
    for (auto& x : r) x = -x;
  return IntegerPolynomial(std::move(r));
}

IntegerPolynomial IntegerPolynomial::exact_quotient(const IntegerPolynomial& b) const {
  // Long division; each leading coefficient is divisible by b's, since every partial
  // remainder is still an integral multiple of b.
  std::vector<Integer> r(c_);
  const int db = b.degree();
  std::vector<Integer> q(std::max(0, degree() - db + 1));
  for (int i = degree(); i >= db; --i) {
    if (sgn(r[i]) == 0) continue;
    mpz_divexact(q[i - db].get_mpz_t(), r[i].get_mpz_t(), b.c_[db].get_mpz_t());
    for (int j = 0; j <= db; ++j) mpz_submul(r[i - db + j].get_mpz_t(), q[i - db].get_mpz_t(), b.c_[j].get_mpz_t());
  }
  return IntegerPolynomial(std::move(q));
}

IntegerPolynomial gcd(IntegerPolynomial a, IntegerPolynomial b) {
  while (!b.is_zero()) {
    IntegerPolynomial r = a.remainder(b);
    a = std::move(b);
    b = r.primitive();  // keeps the coefficients from growing
  }
  return a.primitive();
}

IntegerPolynomial square_free_part(const IntegerPolynomial& p) {
  if (p.degree() <= 0) return p.primitive();
  return p.exact_quotient(gcd(p, p.derivative())).primitive();
}

SturmSequence::SturmSequence(const IntegerPolynomial& square_free) {
  seq_.push_back(square_free);
  seq_.push_back(square_free.derivative());
  // Scaling by a positive constant keeps the sign variations and the coefficients small.
  seq_.back() = seq_.back().primitive();
  while (!seq_.back().is_zero() && seq_.back().degree() > 0) {
    const IntegerPolynomial r = seq_[seq_.size() - 2].remainder(seq_.back());
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

void halve(RootInterval& root, const IntegerPolynomial& p) {
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
  const IntegerPolynomial& p = sturm.polynomial();
  const int n = sturm.roots_in(a, b);
  if (n == 0) return;
  if (n == 1 && p.sign_at(b) == 0) { out.push_back({b, b}); return; }
  if (n == 1 && p.sign_at(a) != 0) { out.push_back({a, b}); return; }
  const Rational m = (a + b) / 2;
  isolate(sturm, a, m, out);
  isolate(sturm, m, b, out);
}
}  // namespace

std::vector<RootInterval> roots_in_unit_interval(const IntegerPolynomial& p) {
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

int sign_at_root(const IntegerPolynomial& q, const IntegerPolynomial& p, RootInterval& root) {
  if (root.exact()) return q.sign_at(root.lo);
  if (q.degree() <= 0) return q.is_zero() ? 0 : sgn(q.coefficient(0));
  const IntegerPolynomial common = gcd(p, q);
  if (common.degree() >= 1 && common.sign_at(root.lo) * common.sign_at(root.hi) < 0) return 0;
  // q does not vanish at the root: narrow until q has no root left in (lo, hi].
  const SturmSequence q_roots(square_free_part(q));
  while (!root.exact() && q_roots.roots_in(root.lo, root.hi) > 0) halve(root, p);
  return q.sign_at(root.hi);
}

}  // namespace eipc::certify
