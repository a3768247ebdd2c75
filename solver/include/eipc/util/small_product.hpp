// A 3x3 matrix times a 3xN one with Eigen's own sums, without its call.
#pragma once

#include "eipc/common.hpp"

namespace eipc {

/// a * b for 3x3 a and 3xN b (any Eigen expression: a transpose is read in
/// place), bit for bit as Eigen 3.4 sums `Matrix<3, N> = a * b` with SSE2:
/// rows 0-1 of each column as one packet, ((t0 + t1) + t2), and row 2 as a
/// scalar reduction, t0 + (t1 + t2). Eigen's product of these small fixed
/// sizes is an out-of-line loop of 130-150 instructions per call; this one is
/// inlined and unrolled (left to itself, GCC calls it too).
template <int N, class Rhs>
[[gnu::always_inline]] inline Eigen::Matrix<double, 3, N> times_3x3(const Mat3& a, const Eigen::MatrixBase<Rhs>& b) {
  Eigen::Matrix<double, 3, N> c;
#pragma GCC unroll 4
  for (int j = 0; j < N; ++j) {
    const double b0 = b(0, j), b1 = b(1, j), b2 = b(2, j);
    c.col(j).template head<2>() = a.col(0).head<2>() * b0 + a.col(1).head<2>() * b1 + a.col(2).head<2>() * b2;
    c(2, j) = a(2, 0) * b0 + (a(2, 1) * b1 + a(2, 2) * b2);
  }
  return c;
}

}  // namespace eipc
