// Univariate polynomials in t with integer (GMP) coefficients, and the exact real-root
// tools the exact CCD needs: Sturm sequences, isolation of the roots in [0, 1] by
// bisection with rational end points, the sign of another polynomial at a root. Every
// double is an exact rational and the contact conditions are homogeneous in the
// coordinates, so the polynomials of a straight motion between double positions, scaled by
// one power of two, have integer coefficients; so do all that is derived from them here
// (pseudo-remainders, exact quotients, primitive parts): no rational coefficient, hence no
// gcd in each product as rational arithmetic would take.
#pragma once

#include <gmpxx.h>

#include <vector>

namespace eipc::certify {

using Integer = mpz_class;
using Rational = mpq_class;

class IntegerPolynomial {
public:
  IntegerPolynomial() = default;
  explicit IntegerPolynomial(std::vector<Integer> coefficients);  ///< c[i] multiplies t^i
  static IntegerPolynomial constant(long c) { return IntegerPolynomial({Integer(c)}); }

  bool is_zero() const { return c_.empty(); }
  int degree() const { return static_cast<int>(c_.size()) - 1; }  ///< -1 for zero
  const Integer& coefficient(int i) const { return c_[i]; }
  /// Sign of the value at t = n/d, in integers: the sign of sum c_i n^i d^(deg-i) (d > 0).
  int sign_at(const Rational& t) const;

  IntegerPolynomial derivative() const;
  /// Divided by the gcd of its coefficients (same roots, same signs everywhere; smaller).
  IntegerPolynomial primitive() const;
  friend IntegerPolynomial operator+(const IntegerPolynomial& a, const IntegerPolynomial& b);
  friend IntegerPolynomial operator-(const IntegerPolynomial& a, const IntegerPolynomial& b);
  friend IntegerPolynomial operator*(const IntegerPolynomial& a, const IntegerPolynomial& b);
  IntegerPolynomial operator-() const;
  /// Remainder of the division by a non-zero b, up to a positive factor (pseudo-division).
  IntegerPolynomial remainder(const IntegerPolynomial& b) const;
  /// The quotient by a primitive b that divides it exactly (then the quotient is integral, Gauss's lemma).
  IntegerPolynomial exact_quotient(const IntegerPolynomial& b) const;

private:
  void trim();
  std::vector<Integer> c_;
};

/// Greatest common divisor, primitive (zero only if both are zero).
IntegerPolynomial gcd(IntegerPolynomial a, IntegerPolynomial b);
/// p with every root simple (p / gcd(p, p')), primitive; p must be non-zero.
IntegerPolynomial square_free_part(const IntegerPolynomial& p);

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
  explicit SturmSequence(const IntegerPolynomial& square_free);
  /// Number of distinct roots in (a, b], a < b.
  int roots_in(const Rational& a, const Rational& b) const { return variations(a) - variations(b); }
  const IntegerPolynomial& polynomial() const { return seq_.front(); }

private:
  int variations(const Rational& x) const;
  std::vector<IntegerPolynomial> seq_;
};

/// Every real root of the square-free, non-constant `p` in the closed [0, 1], increasing,
/// as disjoint intervals with gaps between them (hi of one < lo of the next).
std::vector<RootInterval> roots_in_unit_interval(const IntegerPolynomial& p);

/// Halves the interval of a root of the square-free `p` (becomes exact if the midpoint is the root).
void halve(RootInterval& root, const IntegerPolynomial& p);

/// Sign of q at the root of the square-free `p` (the interval may be narrowed).
int sign_at_root(const IntegerPolynomial& q, const IntegerPolynomial& p, RootInterval& root);

}  // namespace eipc::certify
