// The contact force on one body in a trajectory frame, from the per-pair sums the
// trajectory stores (docs/trajectory-format.md, "Contact forces between bodies"): each
// stored pair (a, b) holds the force on a from b; b feels its opposite. `eipc forces`
// prints these over time (docs/trajectory-format.md, "Contact forces as CSV").
#pragma once

#include "eipc/io/trajectory.hpp"

namespace eipc {

/// Body index of the analytic ground plane in a trajectory's contact pairs.
inline constexpr int kGroundPlane = -1;

struct ContactForce {
  Vec3 normal = Vec3::Zero();    ///< contact (barrier) force [N]
  Vec3 friction = Vec3::Zero();  ///< friction force [N]
  int contacts = 0;              ///< contact primitive pairs contributing
  Vec3 total() const { return normal + friction; }
};

/// Force on body `on` from body `from` (kGroundPlane: the ground) in `frame`; zero when
/// they are not in contact. `on` may be the ground: the opposite of the body's force.
ContactForce force_between(const Frame& frame, int on, int from);

/// Force on body `on` from every other body and the ground in `frame`.
ContactForce force_on(const Frame& frame, int on);

}  // namespace eipc
