// Test oracle for the exact CCD (eipc/certify/exact_ccd.hpp), written apart
// from it: slow and simple. Candidate times are 0 and every root in [0, 1] of
// the polynomials whose roots bound the contact set (point coincidences,
// collinearity, projections, coplanarity, the in-plane side tests); each is an
// exact real number (CORE::Expr, rootOf) and contact there is decided
// geometrically: CGAL's own squared distance of the primitives at that instant
// is exactly zero. The earliest candidate in contact is the first contact time.
#pragma once

#include "eipc/common.hpp"

#include <array>
#include <memory>

namespace eipc::test {

struct OracleContact {
  bool touches = false;
  /// touches: lo <= first contact time <= hi, evaluated exactly.
  bool first_time_within(double lo, double hi) const;
  struct Time;
  std::shared_ptr<Time> first;
};

/// Vertices (p, a, b, c) / (p0, p1, q0, q1) at t = 0 and t = 1.
OracleContact oracle_point_triangle(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1);
OracleContact oracle_edge_edge(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1);

}  // namespace eipc::test
