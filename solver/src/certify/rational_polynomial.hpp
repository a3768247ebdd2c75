// Univariate polynomials in t with exact rational (GMP) coefficients, and the
// exact real-root tools the exact CCD needs: Sturm sequences, isolation of the
// roots in [0, 1] by bisection with rational end points, the sign of another
// polynomial at a root. Every double is an exact rational, so the polynomials
// of a straight motion between double positions are exact.
#pragma once

#include <gmpxx.h>

#include <vector>

namespace eipc::certify {

using Rational = mpq_class;

class RationalPolynomial {
public:
  RationalPolynomial() = default;
  explicit RationalPolynomial(std::vector<Rational> coefficients);  ///< c[i] multiplies t^i
  static RationalPolynomial constant(const Rational& c) { return RationalPolynomial({c}); }

  bool is_zero() const { return c_.empty(); }
  int degree() const { return static_cast<int>(c_.size()) - 1; }  ///< -1 for zero
  const Rational& coefficient(int i) const { return c_[i]; }
  Rational operator()(const Rational& t) const;  ///< Horner
  /// Sign of the value at t; with integer coefficients in integer arithmetic only
  /// (t = n/d: the sign of sum c_i n^i d^(deg-i)), which needs no gcd.
  int sign_at(const Rational& t) const;

  RationalPolynomial derivative() const;
  /// The same polynomial times a positive rational: integer coefficients without a common factor
  /// (same roots, same signs everywhere; cheaper to evaluate).
  RationalPolynomial primitive() const;
  friend RationalPolynomial operator+(const RationalPolynomial& a, const RationalPolynomial& b);
  friend RationalPolynomial operator-(const RationalPolynomial& a, const RationalPolynomial& b);
  friend RationalPolynomial operator*(const RationalPolynomial& a, const RationalPolynomial& b);
  RationalPolynomial operator-() const;
  /// Remainder of the division by a non-zero b, up to a positive factor.
  RationalPolynomial remainder(const RationalPolynomial& b) const;
  /// Quotient of the division by a non-zero b.
  RationalPolynomial quotient(const RationalPolynomial& b) const;

private:
  void trim();
  std::vector<Rational> c_;
  bool integral_ = true;  ///< every coefficient an integer
};

/// Greatest common divisor, primitive (zero only if both are zero).
RationalPolynomial gcd(RationalPolynomial a, RationalPolynomial b);
/// p with every root simple (p / gcd(p, p')), primitive; p must be non-zero.
RationalPolynomial square_free_part(const RationalPolynomial& p);

/// A real root given by rational bounds: exactly `lo` when lo == hi, otherwise
/// the only root of its polynomial in the open interval (lo, hi), whose end
/// points are not roots.
struct RootInterval {
  Rational lo, hi;
  bool exact() const { return lo == hi; }
};

/// The Sturm sequence of a square-free polynomial, to count its roots.
class SturmSequence {
public:
  explicit SturmSequence(const RationalPolynomial& square_free);
  /// Number of distinct roots in (a, b], a < b.
  int roots_in(const Rational& a, const Rational& b) const { return variations(a) - variations(b); }
  const RationalPolynomial& polynomial() const { return seq_.front(); }

private:
  int variations(const Rational& x) const;
  std::vector<RationalPolynomial> seq_;
};

/// Every real root of the square-free, non-constant `p` in the closed [0, 1], increasing,
/// as disjoint intervals with gaps between them (hi of one < lo of the next).
std::vector<RootInterval> roots_in_unit_interval(const RationalPolynomial& p);

/// Halves the interval of a root of the square-free `p` (becomes exact if the midpoint is the root).
void halve(RootInterval& root, const RationalPolynomial& p);

/// Sign of q at the root of the square-free `p` (the interval may be narrowed).
int sign_at_root(const RationalPolynomial& q, const RationalPolynomial& p, RootInterval& root);

}  // namespace eipc::certify
