// One-sided (Hestenes) Jacobi SVD of a 3x3 matrix: plane rotations V applied
// to the columns of B = F V until every pair of columns is orthogonal to a few
// ulps relative to their lengths; then sigma_i = |b_i| and U = the normalized
// columns (Gram-Schmidt, u_2 = u_0 x u_1, so det F's sign lands on sigma_2).
// Unlike an eigen-decomposition of F^T F, which squares the condition number,
// this keeps the column directions accurate for tiny singular values, and V is
// a product of rotations, so det V = +1 by construction. About 2.5x faster than
// Eigen's two-sided JacobiSVD on 3x3 (bench_elasticity BM_svd3). Started from
// the V of a nearby F (the same tet's last SVD), the columns of F V are nearly
// orthogonal already and one rotating sweep (plus the checking one) suffices.
#include "eipc/elasticity/rotation_variant_svd.hpp"

#include "eipc/util/small_product.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace eipc {

namespace {

/// Pairs count as orthogonal when |b_p . b_q| <= tol |b_p| |b_q|; a few ulps,
/// above the rounding of the dot product itself so the sweeps terminate.
constexpr double kOrthogonalityTol = 8.0 * 2.220446049250313e-16;
constexpr double kOrthogonalityTol2 = kOrthogonalityTol * kOrthogonalityTol;
/// Cyclic Jacobi converges quadratically: <= 6 sweeps (the last one only checks)
/// on 3e5 random, near-rotation and near-flat matrices.
constexpr int kMaxSweeps = 16;

/// B = F V and V, column by column in plain arrays: the column indices of the
/// sweeps are template arguments, so the compiler keeps everything unrolled.
struct JacobiColumns {
  double b[3][3];  ///< b[j] = column j of B
  double v[3][3];  ///< v[j] = column j of V
};

/// Rotates columns P, Q of B (and of V alongside) so that b_P . b_Q = 0.
/// Returns false when they already are orthogonal to tolerance.
template <int P, int Q>
bool orthogonalize_pair(JacobiColumns& m) {
  double* bp = m.b[P];
  double* bq = m.b[Q];
  const double alpha = bp[0] * bp[0] + bp[1] * bp[1] + bp[2] * bp[2];
  const double beta = bq[0] * bq[0] + bq[1] * bq[1] + bq[2] * bq[2];
  const double gamma = bp[0] * bq[0] + bp[1] * bq[1] + bp[2] * bq[2];
  if (gamma * gamma <= kOrthogonalityTol2 * alpha * beta) return false;
  // t = tan(theta) of the smaller angle with tan(2 theta) = 2 gamma / (beta - alpha),
  // c = cos(theta). The sweeps are a chain of sqrt/div latencies, so nearly
  // converged pairs (|rho| < 1e-3) use the series in rho = gamma / w instead:
  //   t = rho - rho^3 + 2 rho^5 - 5 rho^7 (+ 14 rho^9),  c = 1 - t^2/2 + 3 t^4/8 - 5 t^6/16 (+ 35 t^8/128)
  // whose first dropped terms are below 1e-20 relative.
  const double w = beta - alpha;
  double c, s;
  if (std::abs(gamma) < 1e-3 * std::abs(w)) {
    const double rho = gamma / w, rho2 = rho * rho;
    const double t = rho * (1.0 - rho2 * (1.0 - rho2 * (2.0 - 5.0 * rho2)));
    const double t2 = t * t;
    c = 1.0 - t2 * (0.5 - t2 * (0.375 - 0.3125 * t2));
    s = c * t;
  } else {
    // t = 2 gamma sgn(w) / (|w| + h), h = sqrt(w^2 + 4 gamma^2) (no cancellation; w = 0
    // gives theta = pi/4), and 1 + t^2 = 2 h / (|w| + h): one sqrt-div pair less.
    const double h = std::sqrt(w * w + 4.0 * gamma * gamma);
    const double k = 1.0 / std::sqrt(2.0 * h * (std::abs(w) + h));
    c = (std::abs(w) + h) * k;
    s = 2.0 * gamma * std::copysign(k, w);
  }
  double* vp = m.v[P];
  double* vq = m.v[Q];
  for (int r = 0; r < 3; ++r) {
    const double b0 = bp[r], b1 = bq[r];
    bp[r] = c * b0 - s * b1;
    bq[r] = s * b0 + c * b1;
    const double v0 = vp[r], v1 = vq[r];
    vp[r] = c * v0 - s * v1;
    vq[r] = s * v0 + c * v1;
  }
  return true;
}

/// Swaps columns i, j of B and V and negates the new column j of both:
/// B = F V still holds and det V stays +1.
void swap_columns_proper(Mat3& B, Mat3& V, Vec3& norm2, int i, int j) {
  B.col(i).swap(B.col(j));
  V.col(i).swap(V.col(j));
  B.col(j) = -B.col(j);
  V.col(j) = -V.col(j);
  std::swap(norm2[i], norm2[j]);
}

/// A unit vector orthogonal to the unit vector u.
Vec3 any_perpendicular(const Vec3& u) {
  Eigen::Index k;
  u.cwiseAbs().minCoeff(&k);
  return u.cross(Vec3::Unit(k)).normalized();
}

/// Below this (relative to sigma_0) a column's direction is noise; the basis
/// is completed with an arbitrary orthogonal direction instead.
constexpr double kNullColumn = 1e-60;

/// A proper rotation close to V (Gram-Schmidt on its columns, third column the
/// cross product), or the identity when V is not usable.
Mat3 nearest_rotation_guess(const Mat3& V) {
  const double n0 = V.col(0).norm();
  if (!V.allFinite() || !(n0 > 0.5)) return Mat3::Identity();
  Mat3 R;
  R.col(0) = V.col(0) / n0;
  const Vec3 rest = V.col(1) - R.col(0).dot(V.col(1)) * R.col(0);
  const double n1 = rest.norm();
  if (!(n1 > 0.5)) return Mat3::Identity();
  R.col(1) = rest / n1;
  R.col(2) = R.col(0).cross(R.col(1));
  return R;
}

/// The SVD with the Jacobi sweeps starting from V = V0 (a rotation).
RotationVariantSvd svd_from(const Mat3& F, const Mat3& V0) {
  if (!F.allFinite()) {  // propagate, so the caller's finiteness checks see it
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return {Mat3::Constant(nan), Vec3::Constant(nan), Mat3::Constant(nan)};
  }
  RotationVariantSvd r{Mat3::Identity(), Vec3::Zero(), Mat3::Identity()};
  const double largest = F.cwiseAbs().maxCoeff();
  if (largest == 0.0) return r;
  // Exact power-of-two rescaling keeps squared norms away from under/overflow.
  const bool rescale = largest < 1e-60 || largest > 1e60;
  const int exponent = rescale ? std::ilogb(largest) : 0;
  JacobiColumns m;
  const double scale = rescale ? std::ldexp(1.0, -exponent) : 1.0;
  const Mat3 B0 = times_3x3<3>(rescale ? Mat3(scale * F) : F, V0);  // 1 * F is F
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) {
      m.b[j][i] = B0(i, j);
      m.v[j][i] = V0(i, j);
    }

  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    bool rotated = orthogonalize_pair<0, 1>(m);
    rotated = orthogonalize_pair<0, 2>(m) || rotated;
    rotated = orthogonalize_pair<1, 2>(m) || rotated;
    if (!rotated) break;
  }

  Mat3 B = Eigen::Map<const Mat3>(&m.b[0][0]);
  Mat3& V = r.V;
  V = Eigen::Map<const Mat3>(&m.v[0][0]);
  Vec3 norm2 = B.colwise().squaredNorm().transpose();
  if (norm2[0] < norm2[1]) swap_columns_proper(B, V, norm2, 0, 1);
  if (norm2[1] < norm2[2]) swap_columns_proper(B, V, norm2, 1, 2);
  if (norm2[0] < norm2[1]) swap_columns_proper(B, V, norm2, 0, 1);

  Mat3& U = r.U;
  const double sigma0 = std::sqrt(norm2[0]);
  U.col(0) = B.col(0) / sigma0;
  // Gram-Schmidt removes the tolerated O(eps) overlap; the cross product makes
  // U a rotation, and the sign of det F lands on sigma_2 = u_2 . b_2.
  const Vec3 rest = B.col(1) - U.col(0).dot(B.col(1)) * U.col(0);
  const double rest_norm = rest.norm();
  U.col(1) = rest_norm > kNullColumn * sigma0 ? Vec3(rest / rest_norm) : any_perpendicular(U.col(0));
  U.col(2) = U.col(0).cross(U.col(1));
  r.sigma = Vec3(sigma0, U.col(1).dot(B.col(1)), U.col(2).dot(B.col(2)));
  if (r.sigma[1] < 0.0) {  // only after an arbitrary completion: flip u_1 and u_2
    U.col(1) = -U.col(1);
    U.col(2) = -U.col(2);
    r.sigma[1] = -r.sigma[1];
    r.sigma[2] = -r.sigma[2];
  }
  // Columns are sorted by norm, so the order can only be off by rounding when
  // singular values (nearly) coincide: clamping moves them by an ulp or so.
  r.sigma[1] = std::min(r.sigma[1], r.sigma[0]);
  r.sigma[2] = std::copysign(std::min(std::abs(r.sigma[2]), r.sigma[1]), r.sigma[2]);
  if (rescale) r.sigma *= std::ldexp(1.0, exponent);
  return r;
}

}  // namespace

RotationVariantSvd rotation_variant_svd(const Mat3& F) { return svd_from(F, Mat3::Identity()); }

RotationVariantSvd rotation_variant_svd(const Mat3& F, const Mat3& V_guess) {
  return svd_from(F, nearest_rotation_guess(V_guess));
}

Mat3 polar_rotation(const Mat3& F) {
  const RotationVariantSvd s = rotation_variant_svd(F);
  return s.U * s.V.transpose();
}

}  // namespace eipc
