#include "eipc/geometry/rigid_fit.hpp"

#include <Eigen/SVD>

#include <emmintrin.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace eipc {

namespace {

/// The mean translation (one pass), its deviation bounded by the box of the
/// displacements: every displacement lies within the box's farthest corner
/// from their mean.
RigidFit translation_of(const Positions& from, const Positions& to, const std::vector<int>& vertices) {
  // Sums, minima and maxima held in registers, coordinates 0 and 1 as one
  // SSE2 packet and 2 alone: the sums Eigen's Vec3 loop made, in the same
  // order (minima and maxima are exact); that loop stored the means back to
  // `fit` at every vertex, as they might alias the positions.
  const double* f = from.data();
  const double* t = to.data();
  const double inf = std::numeric_limits<double>::infinity();
  __m128d from01 = _mm_setzero_pd(), to01 = _mm_setzero_pd();
  __m128d lo01 = _mm_set1_pd(inf), hi01 = _mm_set1_pd(-inf);
  double from2 = 0.0, to2 = 0.0, lo2 = inf, hi2 = -inf;
  for (int v : vertices) {
    const double* a = f + 3 * std::ptrdiff_t(v);
    const double* b = t + 3 * std::ptrdiff_t(v);
    const __m128d a01 = _mm_loadu_pd(a), b01 = _mm_loadu_pd(b);
    from01 = _mm_add_pd(from01, a01);
    to01 = _mm_add_pd(to01, b01);
    from2 += a[2];
    to2 += b[2];
    const __m128d d01 = _mm_sub_pd(b01, a01);
    const double d2 = b[2] - a[2];
    lo01 = _mm_min_pd(lo01, d01);
    hi01 = _mm_max_pd(hi01, d01);
    lo2 = std::min(lo2, d2);
    hi2 = std::max(hi2, d2);
  }
  RigidFit fit;
  _mm_storeu_pd(fit.from_mean.data(), from01);
  _mm_storeu_pd(fit.to_mean.data(), to01);
  fit.from_mean[2] = from2;
  fit.to_mean[2] = to2;
  Eigen::Array3d lo, hi;
  _mm_storeu_pd(lo.data(), lo01);
  _mm_storeu_pd(hi.data(), hi01);
  lo[2] = lo2;
  hi[2] = hi2;
  const double n = double(vertices.size());
  fit.from_mean /= n;
  fit.to_mean /= n;
  const Eigen::Array3d mean = (fit.to_mean - fit.from_mean).array();
  fit.deviation = (hi - mean).max(mean - lo).matrix().norm();
  return fit;
}

/// `moved` (the mean translation) with the turn that best follows the vertices.
RigidFit turned(const Positions& from, const Positions& to, const std::vector<int>& vertices, RigidFit moved) {
  // The cross-covariance, summed entry by entry in plain arithmetic (Eigen's
  // outer product per vertex cost several times more): sum[i][j] adds
  // d[i] e[j] vertex after vertex. Columns 0 and 1 of each row are summed as
  // one SSE2 packet, column 2 alone: the same products and sums, in the same
  // order, with the nine sums held in registers (as a loop over i and j, GCC
  // kept them in memory: ~100 instructions a vertex).
  const double* f = moved.from_mean.data();
  const double* t = moved.to_mean.data();
  const __m128d f01 = _mm_loadu_pd(f), t01 = _mm_loadu_pd(t);
  const double f2 = f[2], t2 = t[2];
  __m128d row0 = _mm_setzero_pd(), row1 = _mm_setzero_pd(), row2 = _mm_setzero_pd();
  double sum02 = 0.0, sum12 = 0.0, sum22 = 0.0;
  for (int v : vertices) {
    const double* a = from.row(v).data();
    const double* b = to.row(v).data();
    const __m128d d01 = _mm_sub_pd(_mm_loadu_pd(a), f01);
    const __m128d e01 = _mm_sub_pd(_mm_loadu_pd(b), t01);
    const double d0 = _mm_cvtsd_f64(d01), d1 = _mm_cvtsd_f64(_mm_unpackhi_pd(d01, d01));
    const double d2 = a[2] - f2, e2 = b[2] - t2;
    row0 = _mm_add_pd(row0, _mm_mul_pd(_mm_set1_pd(d0), e01));
    row1 = _mm_add_pd(row1, _mm_mul_pd(_mm_set1_pd(d1), e01));
    row2 = _mm_add_pd(row2, _mm_mul_pd(_mm_set1_pd(d2), e01));
    sum02 += d0 * e2;
    sum12 += d1 * e2;
    sum22 += d2 * e2;
  }
  double sum[3][3];
  _mm_storeu_pd(sum[0], row0);
  _mm_storeu_pd(sum[1], row1);
  _mm_storeu_pd(sum[2], row2);
  sum[0][2] = sum02;
  sum[1][2] = sum12;
  sum[2][2] = sum22;
  Mat3 cross;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) cross(i, j) = sum[i][j];
  const Eigen::JacobiSVD<Mat3> svd(cross, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 flip = Mat3::Identity();
  flip(2, 2) = (svd.matrixV() * svd.matrixU().transpose()).determinant() < 0.0 ? -1.0 : 1.0;
  moved.rotation = svd.matrixV() * flip * svd.matrixU().transpose();
  return moved;
}

/// The largest |to - (R (from - from_mean) + to_mean)|, or the first past
/// give_up (then `complete` is false).
double deviation(const Positions& from, const Positions& to, const std::vector<int>& vertices, const RigidFit& fit,
                 double give_up, bool* complete = nullptr) {
  const double give_up2 = give_up * give_up;
  double worst = 0.0;
  bool all = true;
  for (int v : vertices) {
    worst = std::max(worst, (to.row(v).transpose() - fit.to_mean -
                             fit.rotation * (from.row(v).transpose() - fit.from_mean)).squaredNorm());
    if (worst > give_up2) {
      all = false;
      break;
    }
  }
  if (complete) *complete = all;
  return std::sqrt(worst);
}

/// deviation() of `fit`, from `known` when that answers it: the largest over
/// every vertex answers any give_up, and a value past an earlier give_up any
/// give_up below it (a caller asks only whether all are within give_up).
double deviation_of(FollowParts::Deviation& known, const Positions& from, const Positions& to,
                    const std::vector<int>& vertices, const RigidFit& fit, double give_up) {
  if (known.value >= 0.0 && (known.exact || known.value > give_up)) return known.value;
  known.value = deviation(from, to, vertices, fit, give_up, &known.exact);
  return known.value;
}

}  // namespace

RigidFit fit_rigid(const Positions& from, const Positions& to, const std::vector<int>& vertices, double give_up) {
  if (vertices.empty()) return {};
  RigidFit fit = turned(from, to, vertices, translation_of(from, to, vertices));
  fit.deviation = deviation(from, to, vertices, fit, give_up);
  return fit;
}

RigidFit fit_translation(const Positions& from, const Positions& to, const std::vector<int>& vertices) {
  if (vertices.empty()) return {};
  RigidFit fit = translation_of(from, to, vertices);
  fit.deviation = deviation(from, to, vertices, fit, std::numeric_limits<double>::infinity());
  return fit;
}

RigidFit follow(const Positions& from, const Positions& to, const std::vector<int>& vertices, double skin, bool turn) {
  FollowParts parts;
  return follow(from, to, vertices, skin, turn, parts);
}

RigidFit follow(const Positions& from, const Positions& to, const std::vector<int>& vertices, double skin, bool turn,
                FollowParts& parts) {
  if (vertices.empty()) return {};
  if (!parts.moved) parts.moved = translation_of(from, to, vertices);
  RigidFit fit = *parts.moved;
  if (fit.deviation <= skin) return fit;
  fit.deviation = deviation_of(parts.moved_deviation, from, to, vertices, fit, skin);
  if (fit.deviation <= skin || !turn) return fit;
  if (!parts.turned) parts.turned = turned(from, to, vertices, *parts.moved);
  fit = *parts.turned;
  fit.deviation = deviation_of(parts.turned_deviation, from, to, vertices, fit, skin);
  return fit;
}

RigidFit FitMemo::follow(const SharedPositions& from, const SharedPositions& to, const std::vector<int>& vertices,
                         double skin, bool turn) {
  auto it = std::find_if(entries_.begin(), entries_.end(),
                         [&](const Entry& e) { return e.from == from && e.to == to; });
  if (it == entries_.end()) {
    it = entries_.begin() + std::ptrdiff_t(next_);
    next_ = (next_ + 1) % entries_.size();
    *it = Entry{from, to, {}};
  }
  return eipc::follow(*from, *to, vertices, skin, turn, it->parts);
}

double half_angle_cosine(const RigidFit& a, const RigidFit& b) {
  // cos(theta) = (trace(R_a^T R_b) - 1) / 2, and cos(theta / 2)^2 = (1 + cos(theta)) / 2.
  const double trace = (a.rotation.transpose() * b.rotation).trace();
  return std::sqrt(std::clamp((trace + 1.0) / 4.0, 0.0, 1.0));
}

}  // namespace eipc
