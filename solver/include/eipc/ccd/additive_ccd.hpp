// Narrow-phase continuous collision detection (CCD) for linearly moving
// primitives: additive CCD (ACCD, Li et al. 2021 "Codimensional Incremental
// Potential Contact", after Tang et al. 2009), plus the exact point-plane case.
//
// Contract of every query: positions move linearly from t = 0 to t = 1. Returns
// true and toi in [0, tmax] if the primitives MAY come within `min_distance` of
// each other by time tmax. toi is conservative: the distance stays above
// min_distance on [0, toi]. A query may report a contact that does not happen
// (false positive) but never misses one, including with min_distance = 0.
//
// ACCD: with the common mean displacement removed, l_p bounds how fast the
// distance can shrink (point-triangle: |dp| + max_i |dt_i|; edge-edge:
// max |dea_i| + max |deb_i|). From a time t with gap g = d(t) - err - min_distance
// (err bounds the rounding error of d), no contact can occur before
// t + g / l_p, so ACCD advances by c g / l_p (c = 0.9) and stops, reporting
// toi = t, once g <= stop_fraction * g(0). If t + c g / l_p passes tmax there is
// no contact.
#pragma once

#include "eipc/common.hpp"

namespace eipc {

/// Tuning of additive CCD (the defaults are what the solver uses).
struct AdditiveCcdOptions {
  double conservative_rescaling = 0.9;  ///< c: step = c * gap / l_p, in (0, 1)
  double stop_fraction = 0.1;           ///< report toi once gap <= stop_fraction * initial gap
  long max_iterations = 1000000;        ///< then report the (still conservative) toi reached
  /// Keep, besides min_distance, this fraction of the distance d(0) at t = 0:
  /// the query then treats min_distance + start_fraction * d(0) as its
  /// min_distance (d(0) is computed once, for both uses).
  double start_fraction = 0.0;
  /// A lower bound of d(0) the caller knows (e.g. a remembered gap less the
  /// moves since, PairDistanceBounds): like the gap between the primitives'
  /// boxes, it settles a pair whose first step would pass tmax without
  /// computing d(0). Whichever of the two is larger counts.
  double distance_lower_bound = 0.0;
};

/// Point p against triangle (t0, t1, t2); arguments at t = 0, then at t = 1.
bool point_triangle_ccd(const Vec3& p_t0, const Vec3& t0_t0, const Vec3& t1_t0, const Vec3& t2_t0,
                        const Vec3& p_t1, const Vec3& t0_t1, const Vec3& t1_t1, const Vec3& t2_t1,
                        double min_distance, double tmax, double& toi,
                        const AdditiveCcdOptions& options = {});

/// Edge (ea0, ea1) against edge (eb0, eb1); arguments at t = 0, then at t = 1.
bool edge_edge_ccd(const Vec3& ea0_t0, const Vec3& ea1_t0, const Vec3& eb0_t0, const Vec3& eb1_t0,
                   const Vec3& ea0_t1, const Vec3& ea1_t1, const Vec3& eb0_t1, const Vec3& eb1_t1,
                   double min_distance, double tmax, double& toi,
                   const AdditiveCcdOptions& options = {});

/// A vertex with height z(t) = z_t0 + t (z_t1 - z_t0) against the ground plane
/// z = height (the vertex is on the side z > height). Exact linear solve
/// toi = (z_t0 - height - min_distance) / (z_t0 - z_t1), rounded down; a vertex
/// already within min_distance (or below the plane) gives toi = 0.
bool point_plane_ccd(double z_t0, double z_t1, double height, double min_distance, double tmax,
                     double& toi);

}  // namespace eipc
