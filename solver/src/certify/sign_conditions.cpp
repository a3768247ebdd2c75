// Earliest time of a conjunction of sign conditions. With an equation not
// identically zero, the set is finite: the common roots of the equations
// that meet the inequalities. Otherwise it is a union of intervals whose end
// points are roots of the inequalities' polynomials: between two consecutive
// roots every sign is constant, so one rational sample per gap decides the gap.
#include "sign_conditions.hpp"

namespace eipc::certify {

void ExactTime::narrow(const Rational& width) {
  while (!root.exact() && root.hi - root.lo > width) halve(root, polynomial);
}

namespace {

bool holds_at(const SignConditions& c, const Rational& t) {
  for (const auto& p : c.zero)
    if (p.sign_at(t) != 0) return false;
  for (const auto& p : c.positive)
    if (p.sign_at(t) <= 0) return false;
  for (const auto& p : c.nonnegative)
    if (p.sign_at(t) < 0) return false;
  return true;
}

/// The inequalities at a root of the square-free `base` (the equations vanish there by construction).
bool inequalities_hold_at_root(const SignConditions& c, const IntegerPolynomial& base, RootInterval& root) {
  for (const auto& p : c.positive)
    if (sign_at_root(p, base, root) <= 0) return false;
  for (const auto& p : c.nonnegative)
    if (sign_at_root(p, base, root) < 0) return false;
  return true;
}

std::optional<ExactTime> earliest_common_root(const SignConditions& c) {
  IntegerPolynomial base;
  for (const auto& p : c.zero) base = gcd(base, p);
  if (base.degree() < 1) return std::nullopt;  // a non-zero constant among the equations
  base = square_free_part(base);
  for (RootInterval root : roots_in_unit_interval(base))
    if (inequalities_hold_at_root(c, base, root)) return ExactTime{root, base};
  return std::nullopt;
}

std::optional<ExactTime> earliest_in_intervals(const SignConditions& c) {
  IntegerPolynomial product = IntegerPolynomial::constant(1);
  for (const auto& p : c.positive) {
    if (p.is_zero()) return std::nullopt;
    product = product * p;
  }
  for (const auto& p : c.nonnegative)
    if (!p.is_zero()) product = product * p;
  const ExactTime zero{{0, 0}, IntegerPolynomial::constant(1)};
  if (holds_at(c, 0)) return zero;
  if (product.degree() < 1) return std::nullopt;  // constant signs, and t = 0 failed
  const IntegerPolynomial base = square_free_part(product);
  ExactTime previous = zero;  // left end of the current gap
  for (RootInterval root : roots_in_unit_interval(base)) {
    if (previous.root.hi < root.lo && holds_at(c, (previous.root.hi + root.lo) / 2)) return previous;
    if (inequalities_hold_at_root(c, base, root)) return ExactTime{root, base};
    previous = ExactTime{root, base};
  }
  if (previous.root.hi < 1 && holds_at(c, (previous.root.hi + 1) / 2)) return previous;
  return std::nullopt;
}

}  // namespace

std::optional<ExactTime> earliest_time(const SignConditions& conditions) {
  // Positive multiples change no sign and evaluate faster (integer arithmetic).
  SignConditions c;
  for (const auto& p : conditions.zero) c.zero.push_back(p.primitive());
  for (const auto& p : conditions.positive) c.positive.push_back(p.primitive());
  for (const auto& p : conditions.nonnegative) c.nonnegative.push_back(p.primitive());
  for (const auto& p : c.zero)
    if (!p.is_zero()) return earliest_common_root(c);
  return earliest_in_intervals(c);
}

}  // namespace eipc::certify
