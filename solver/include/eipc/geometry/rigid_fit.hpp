// The rigid motion that carries a set of points closest to where they went
// (least squares, Kabsch), and how far they went beyond it. Distances do not
// change under a rigid motion, so a broad phase can follow it: a gripper
// finger turned 26 mrad a step moves its own close pairs only by how much it
// deforms (docs/performance.md).
#pragma once

#include "eipc/common.hpp"

#include <limits>
#include <vector>

namespace eipc {

struct RigidFit {
  Mat3 rotation = Mat3::Identity();  ///< R: to is about R (from - from_mean) + to_mean
  Vec3 from_mean = Vec3::Zero();
  Vec3 to_mean = Vec3::Zero();
  /// max over the vertices of |to - (R (from - from_mean) + to_mean)|
  double deviation = 0.0;
};

/// The proper rotation and translation that best carry `from` onto `to` over
/// `vertices` (rows of both), and the largest deviation from them; or, once a
/// vertex deviates more than `give_up`, that vertex's deviation (a caller
/// asking whether all are within give_up needs no more).
RigidFit fit_rigid(const Positions& from, const Positions& to, const std::vector<int>& vertices,
                   double give_up = std::numeric_limits<double>::infinity());

/// The mean displacement of `vertices` from `from` to `to`, as a fit without a
/// turn (rotation I), and the largest deviation from it.
RigidFit fit_translation(const Positions& from, const Positions& to, const std::vector<int>& vertices);

/// The cheapest fit that leaves every vertex within `skin`, trying the mean
/// translation (one pass when the box of the displacements is within the skin)
/// before the rigid motion (if `turn`); when none does, the last fit tried,
/// with a deviation past the skin (not necessarily the largest).
RigidFit follow(const Positions& from, const Positions& to, const std::vector<int>& vertices, double skin,
                bool turn = true);

/// cos(theta / 2), theta the angle of the rotation from a's to b's. It is the
/// least singular value any (1 - t) R_a + t R_b (t in [0, 1]) can have: a
/// straight move between two placements shortens no vector by more.
double half_angle_cosine(const RigidFit& a, const RigidFit& b);

}  // namespace eipc
