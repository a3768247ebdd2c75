// The rigid motion that carries a set of points closest to where they went
// (least squares, Kabsch), and how far they went beyond it. Distances do not
// change under a rigid motion, so a broad phase can follow it: a gripper
// finger turned 26 mrad a step moves its own close pairs only by how much it
// deforms (docs/performance.md).
#pragma once

#include "eipc/common.hpp"
#include "eipc/geometry/shared_positions.hpp"

#include <array>
#include <limits>
#include <optional>
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

/// What follow() found for one pair of positions and vertex set, kept so that
/// fitting them again (with any skin) reuses it: the mean translation, the
/// turn, and how far each one's deviation pass went.
struct FollowParts {
  /// A deviation pass: `exact`, the largest over every vertex; otherwise one
  /// past the give_up it was asked with (it stopped there). value < 0: none yet.
  struct Deviation {
    double value = -1.0;
    bool exact = false;
  };
  std::optional<RigidFit> moved;  ///< translation_of: deviation bounded by the displacements' box
  Deviation moved_deviation;
  std::optional<RigidFit> turned;  ///< the turn that best follows the vertices
  Deviation turned_deviation;
};

/// follow(from, to, vertices, skin, turn) reusing and adding to `parts` (of
/// the same from, to and vertices): the same fit, except that a deviation
/// past the skin may be another value past it.
RigidFit follow(const Positions& from, const Positions& to, const std::vector<int>& vertices, double skin, bool turn,
                FollowParts& parts);

/// The parts of the last few follow() fits of one vertex set, keyed on the
/// shared positions fitted (docs/performance.md, FinRay session 5): a contact
/// filtering and the sweeps after it fit the same reference to the same x
/// again, with other skins.
class FitMemo {
public:
  RigidFit follow(const SharedPositions& from, const SharedPositions& to, const std::vector<int>& vertices,
                  double skin, bool turn);

private:
  struct Entry {
    SharedPositions from, to;
    FollowParts parts;
  };
  std::array<Entry, 8> entries_;
  std::size_t next_ = 0;  ///< the entry replaced next (the oldest)
};

/// cos(theta / 2), theta the angle of the rotation from a's to b's. It is the
/// least singular value any (1 - t) R_a + t R_b (t in [0, 1]) can have: a
/// straight move between two placements shortens no vector by more.
double half_angle_cosine(const RigidFit& a, const RigidFit& b);

}  // namespace eipc
