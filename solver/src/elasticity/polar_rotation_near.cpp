// Newton's method on the rotation of the polar decomposition (docs/elasticity.md,
// "The rotation of a tet"). With G = guess^T F the rotation left to find, Q,
// makes X = Q^T G symmetric. Writing X = S + W (W skew, w its axial vector),
// a small turn Q <- Q exp([theta]x) changes W by -skew([theta]x S), and
// [theta]x S + S [theta]x = [(tr S I - S) theta]x, so Newton's step solves
//   (tr S I - S) theta = 2 w.
// The matrix has the eigenvalues s_i + s_j of pairs of S's eigenvalues: positive
// definite exactly when no two of them sum to <= 0. Convergence is quadratic in
// the turn left, whatever the strain S: from the tet's last rotation (a line
// search's trial or a step away) two steps reach round-off. The classic
// iteration X <- (X + X^-T) / 2 has to drive all of S to I instead (four to six
// steps at strains of 1-10%), and the Jacobi SVD takes two sweeps and three
// square roots.
// The turn is applied as a Cayley transform, a rotation to round-off with one
// division and no trigonometry; it equals exp([theta]x) to second order, enough
// for Newton.
#include "eipc/elasticity/polar_rotation_near.hpp"

#include "eipc/util/small_product.hpp"

namespace eipc {

namespace {
/// Newton steps before giving up (two, sometimes one or three, from a tet's
/// last rotation in the grasp and FinRay).
constexpr int kMaxSteps = 8;
/// Converged when a step turned by less than this (radians, squared): the
/// next step's turn would be about its square, below round-off.
constexpr double kTurnTol2 = 1e-16;

/// The Cayley transform of the turn theta = 2 h: (I - [h]x)^-1 (I + [h]x)
/// = I + 2 / (1 + |h|^2) ([h]x + h h^T - |h|^2 I).
Mat3 cayley(const Vec3& h) {
  const double h2 = h.squaredNorm();
  const double s = 2.0 / (1.0 + h2);
  const double d = 1.0 - s * h2;
  Mat3 C;
  C << d + s * h[0] * h[0], s * (h[0] * h[1] - h[2]), s * (h[0] * h[2] + h[1]),
       s * (h[1] * h[0] + h[2]), d + s * h[1] * h[1], s * (h[1] * h[2] - h[0]),
       s * (h[2] * h[0] - h[1]), s * (h[2] * h[1] + h[0]), d + s * h[2] * h[2];
  return C;
}
}  // namespace

bool polar_rotation_near(const Mat3& F, const Mat3& guess, Mat3& R) {
  if (!(F.determinant() > 0.0)) return false;  // also false for NaN
  Mat3 turned = guess;                              // guess Q
  Mat3 X = times_3x3<3>(guess.transpose(), F);      // Q^T guess^T F
  for (int step = 0; step < kMaxSteps; ++step) {
    const Vec3 w(0.5 * (X(2, 1) - X(1, 2)), 0.5 * (X(0, 2) - X(2, 0)), 0.5 * (X(1, 0) - X(0, 1)));
    // A = tr(S) I - S, S = sym(X); theta / 2 = A^-1 w from A's adjugate.
    const double t = X.trace();
    const double a00 = t - X(0, 0), a11 = t - X(1, 1), a22 = t - X(2, 2);
    const double a01 = -0.5 * (X(0, 1) + X(1, 0)), a02 = -0.5 * (X(0, 2) + X(2, 0)),
                 a12 = -0.5 * (X(1, 2) + X(2, 1));
    const double c00 = a11 * a22 - a12 * a12, c01 = a02 * a12 - a01 * a22, c02 = a01 * a12 - a02 * a11;
    const double c11 = a00 * a22 - a02 * a02, c12 = a01 * a02 - a00 * a12, c22 = a00 * a11 - a01 * a01;
    const double det = a00 * c00 + a01 * c01 + a02 * c02;
    // Sylvester: A positive definite, so every pair of S's eigenvalues sums
    // to > 0, which with det S = det F > 0 leaves them all positive; else this
    // is not the polar rotation (or not yet near it).
    if (!(a00 > 0.0 && c22 > 0.0 && det > 0.0)) return false;
    const double inv = 1.0 / det;
    const Vec3 half_turn(inv * (c00 * w[0] + c01 * w[1] + c02 * w[2]), inv * (c01 * w[0] + c11 * w[1] + c12 * w[2]),
                         inv * (c02 * w[0] + c12 * w[1] + c22 * w[2]));
    const Mat3 C = cayley(half_turn);
    turned = times_3x3<3>(turned, C);
    if (4.0 * half_turn.squaredNorm() < kTurnTol2) {
      // One orthonormalising step, R (3 I - R^T R) / 2, so that the products'
      // round-off does not pile up from call to call through the guess.
      const Mat3 gram = times_3x3<3>(turned.transpose(), turned);
      R = times_3x3<3>(turned, 1.5 * Mat3::Identity() - 0.5 * gram);
      return true;
    }
    X = times_3x3<3>(C.transpose(), X);
  }
  return false;
}

}  // namespace eipc
