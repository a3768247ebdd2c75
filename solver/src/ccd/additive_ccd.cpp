#include "eipc/ccd/additive_ccd.hpp"

#include "eipc/ccd/ccd_distance.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace eipc {

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();
// Rounding error allowance of a distance, in units of eps * (largest |coordinate|).
constexpr double kDistanceErrorUlps = 64.0;

using Stencil = std::array<Vec3, 4>;

/// The distance between the boxes of points [0, split) and [split, 4) of x: at
/// most the distance between the primitives they span, and a few flops.
double box_gap(const Stencil& x, int split) {
  Eigen::Array3d lo_a = x[0].array(), hi_a = lo_a, lo_b = x[std::size_t(split)].array(), hi_b = lo_b;
  for (int i = 1; i < split; ++i) {
    lo_a = lo_a.min(x[std::size_t(i)].array());
    hi_a = hi_a.max(x[std::size_t(i)].array());
  }
  for (int i = split + 1; i < 4; ++i) {
    lo_b = lo_b.min(x[std::size_t(i)].array());
    hi_b = hi_b.max(x[std::size_t(i)].array());
  }
  return (lo_a - hi_b).max(lo_b - hi_a).max(0.0).matrix().norm();
}

/// Additive CCD on four moving points; `distance(x)` is the primitive distance
/// between points [0, split) and [split, 4), and `speed_bound(dx)` the l_p
/// bound for the centred displacements dx.
template <class Distance, class SpeedBound>
bool additive_ccd(const Stencil& x_t0, const Stencil& x_t1, int split, Distance distance, SpeedBound speed_bound,
                  double min_distance, double tmax, double& toi, const AdditiveCcdOptions& opt) {
  // Remove the mean displacement: the relative motion, hence every distance, is unchanged.
  Stencil dx;
  Vec3 mean = Vec3::Zero();
  for (int i = 0; i < 4; ++i) mean += x_t1[i] - x_t0[i];
  mean /= 4.0;
  double scale = 0.0;
  for (int i = 0; i < 4; ++i) {
    dx[i] = (x_t1[i] - x_t0[i]) - mean;
    scale = std::max({scale, x_t0[i].cwiseAbs().maxCoeff(), (x_t0[i] + dx[i]).cwiseAbs().maxCoeff()});
  }
  const double err = kDistanceErrorUlps * kEps * scale;
  const double lp = speed_bound(dx) * (1.0 + 1e-12);  // margin for rounding in the norms

  auto gap_at = [&](double t) {
    Stencil x;
    for (int i = 0; i < 4; ++i) x[i] = x_t0[i] + t * dx[i];
    return distance(x) - err - min_distance;
  };

  toi = 0.0;
  // A pair far enough apart that its first step passes tmax is settled from a
  // lower bound on d(0): its boxes' distance, or the caller's bound, less
  // twice the rounding allowance (so at most the computed d(0)). The answer
  // is the one below.
  const double r = opt.start_fraction;
  if (r <= 1.0) {
    const double below = std::max(box_gap(x_t0, split), opt.distance_lower_bound);
    const double gap_bound = (1.0 - r) * (below - 2.0 * err) - err - min_distance;
    if (gap_bound > 0.0 && opt.conservative_rescaling * gap_bound > tmax * lp * (1.0 + 1e-9)) return false;
  }
  const double d0 = distance(x_t0);
  if (r != 0.0) min_distance += r * d0;
  const double gap0 = d0 - err - min_distance;
  if (!(gap0 > 0.0)) return true;  // already within min_distance (or NaN input)
  if (lp == 0.0) return false;     // no relative motion: the distance is constant
  const double stop_gap = opt.stop_fraction * gap0;
  double gap = gap0;
  for (long it = 0; it < opt.max_iterations; ++it) {
    const double t_next = toi + opt.conservative_rescaling * gap / lp;
    if (t_next > tmax) return false;
    toi = t_next;
    gap = gap_at(toi);
    if (gap <= stop_gap) return true;
  }
  return true;  // out of iterations: toi is still a safe lower bound
}

}  // namespace

bool point_triangle_ccd(const Vec3& p_t0, const Vec3& t0_t0, const Vec3& t1_t0, const Vec3& t2_t0,
                        const Vec3& p_t1, const Vec3& t0_t1, const Vec3& t1_t1, const Vec3& t2_t1,
                        double min_distance, double tmax, double& toi,
                        const AdditiveCcdOptions& options) {
  return additive_ccd(
      {p_t0, t0_t0, t1_t0, t2_t0}, {p_t1, t0_t1, t1_t1, t2_t1}, 1,
      [](const Stencil& x) { return ccd::point_triangle_distance(x[0], x[1], x[2], x[3]); },
      // l_p = |dp| + max_i |dt_i|
      [](const Stencil& d) { return d[0].norm() + std::max({d[1].norm(), d[2].norm(), d[3].norm()}); },
      min_distance, tmax, toi, options);
}

bool edge_edge_ccd(const Vec3& ea0_t0, const Vec3& ea1_t0, const Vec3& eb0_t0, const Vec3& eb1_t0,
                   const Vec3& ea0_t1, const Vec3& ea1_t1, const Vec3& eb0_t1, const Vec3& eb1_t1,
                   double min_distance, double tmax, double& toi,
                   const AdditiveCcdOptions& options) {
  return additive_ccd(
      {ea0_t0, ea1_t0, eb0_t0, eb1_t0}, {ea0_t1, ea1_t1, eb0_t1, eb1_t1}, 2,
      [](const Stencil& x) { return ccd::edge_edge_distance(x[0], x[1], x[2], x[3]); },
      // l_p = max(|dea0|, |dea1|) + max(|deb0|, |deb1|)
      [](const Stencil& d) { return std::max(d[0].norm(), d[1].norm()) + std::max(d[2].norm(), d[3].norm()); },
      min_distance, tmax, toi, options);
}

bool point_plane_ccd(double z_t0, double z_t1, double height, double min_distance, double tmax,
                     double& toi) {
  const double err = 4.0 * kEps * (std::abs(z_t0) + std::abs(z_t1) + std::abs(height));
  const double gap0 = (z_t0 - height) - min_distance - err;
  toi = 0.0;
  if (!(gap0 > 0.0)) return true;
  const double approach = z_t0 - z_t1;  // distance lost per unit time
  if (approach <= 0.0) return false;
  const double t = gap0 / approach * (1.0 - 4.0 * kEps);
  if (t > tmax) return false;
  toi = t;
  return true;
}

}  // namespace eipc
