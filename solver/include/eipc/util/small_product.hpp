// A 3x3 matrix times a 3xN one with Eigen's own sums, without its call.
#pragma once

#include "eipc/common.hpp"

#include <emmintrin.h>

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

/// dst -= l w for 3x3 blocks l (column-major) and 3-vectors w, bit for bit as
/// Eigen 3.4 sums `dst.noalias() -= l * w` with SSE2: rows 0-1 a packet
/// ((l0 w0 + l1 w1) + l2 w2), row 2 a scalar l0 w0 + (l1 w1 + l2 w2). Its parts
/// are loaded once and reused: l's columns for every w (BlockLdlt's factorisation,
/// SubtractTimesBlock), w's entries broadcast for every l (Eigen did both per product).
struct Mat3Columns {
  /// Everything loaded before the caller's first store: an SSE2 store may alias anything.
  explicit Mat3Columns(const double* l)
      : rows01{_mm_loadu_pd(l), _mm_loadu_pd(l + 3), _mm_loadu_pd(l + 6)}, row2{l[2], l[5], l[8]} {}
  __m128d rows01[3];
  double row2[3];
};
struct BroadcastVec3 {
  BroadcastVec3(double w0, double w1, double w2)
      : both{_mm_set1_pd(w0), _mm_set1_pd(w1), _mm_set1_pd(w2)}, one{w0, w1, w2} {}
  __m128d both[3];
  double one[3];
};
[[gnu::always_inline]] inline void subtract_product(double* dst, const Mat3Columns& l, const BroadcastVec3& w) {
  const __m128d t = _mm_add_pd(_mm_add_pd(_mm_mul_pd(l.rows01[0], w.both[0]), _mm_mul_pd(l.rows01[1], w.both[1])),
                               _mm_mul_pd(l.rows01[2], w.both[2]));
  const double t2 = l.row2[0] * w.one[0] + (l.row2[1] * w.one[1] + l.row2[2] * w.one[2]);
  _mm_storeu_pd(dst, _mm_sub_pd(_mm_loadu_pd(dst), t));
  dst[2] -= t2;
}

/// dst -= l w for a fixed 3-vector w and many l (a triangular solve's column).
class SubtractTimesVector {
public:
  explicit SubtractTimesVector(const Vec3& w) : w_(w[0], w[1], w[2]) {}
  [[gnu::always_inline]] void operator()(double* dst, const double* l) const { subtract_product(dst, Mat3Columns(l), w_); }

private:
  BroadcastVec3 w_;
};

/// dst -= l w for a fixed 3x3 w and many l, column by column of w (a factorisation's row).
class SubtractTimesBlock {
public:
  explicit SubtractTimesBlock(const Mat3& w)
      : w_{{w(0, 0), w(1, 0), w(2, 0)}, {w(0, 1), w(1, 1), w(2, 1)}, {w(0, 2), w(1, 2), w(2, 2)}} {}
  [[gnu::always_inline]] void operator()(Mat3& dst, const Mat3& l) const {
    const Mat3Columns columns(l.data());
#pragma GCC unroll 3
    for (int a = 0; a < 3; ++a) subtract_product(dst.data() + 3 * a, columns, w_[a]);
  }

private:
  BroadcastVec3 w_[3];  ///< w's columns
};

/// The inverse of an SPD 3x3 matrix from its Cholesky factor L (the lower
/// triangle of `llt`, Eigen::LLT's matrixLLT()), bit for bit as
/// `Eigen::LLT<Mat3>::solve(Mat3::Identity())` computes it: Eigen 3.4 runs its
/// general blocked triangular solver for a 3x3 right-hand side, whose small
/// panel does, column by column, x_i *= 1 / L_ii then x_r -= x_i L_ri below
/// (forward), and x_i = (x_i - (L_si x_s + ...)) / L_ii from the bottom up
/// (backward, the sum from 0 in increasing s). Called once per row of a
/// factorisation, where Eigen's two out-of-line solves were 10% of its cost.
[[gnu::always_inline]] inline Mat3 spd_inverse_from_cholesky(const Mat3& llt) {
  Mat3 x = Mat3::Identity();
  for (int i = 0; i < 3; ++i) {
    const double a = 1.0 / llt(i, i);
    for (int j = 0; j < 3; ++j) {
      x(i, j) *= a;
      const double b = x(i, j);
      for (int r = i + 1; r < 3; ++r) x(r, j) -= b * llt(r, i);
    }
  }
  for (int i = 2; i >= 0; --i) {
    const double a = 1.0 / llt(i, i);
    for (int j = 0; j < 3; ++j) {
      double b = 0.0;
      for (int s = i + 1; s < 3; ++s) b += llt(s, i) * x(s, j);
      x(i, j) = (x(i, j) - b) * a;
    }
  }
  return x;
}

}  // namespace eipc
