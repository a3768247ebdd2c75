// A conjunction of polynomial sign conditions in t, and the earliest t in
// [0, 1] where it holds (exactly, with rational root isolation).
#pragma once

#include "integer_polynomial.hpp"

#include <optional>
#include <vector>

namespace eipc::certify {

/// All of: every `zero` polynomial vanishes, every `positive` one is > 0,
/// every `nonnegative` one is >= 0.
struct SignConditions {
  std::vector<IntegerPolynomial> zero, positive, nonnegative;
};

/// A time given as a root of `polynomial` (square-free), or exactly when root.exact().
struct ExactTime {
  RootInterval root;
  IntegerPolynomial polynomial;
  /// Narrows the interval to at most `width` (or to the exact root).
  void narrow(const Rational& width);
};

/// The infimum of the t in [0, 1] where the conditions hold, or none if they
/// hold nowhere in [0, 1]. (The infimum belongs to the closure of the set;
/// callers whose union of conditions is closed get the earliest time itself.)
std::optional<ExactTime> earliest_time(const SignConditions& conditions);

}  // namespace eipc::certify
