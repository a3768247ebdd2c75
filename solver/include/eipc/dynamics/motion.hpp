// Scripted rigid motion of prescribed vertices and kinematic bodies.
#pragma once

#include "eipc/common.hpp"

#include <vector>

namespace eipc {

/// One keyframe: at time t the body is translated by `translation` and rotated by
/// `rotation_deg` (XYZ Euler angles in degrees, R = Rz * Ry * Rx) about its rest centroid.
struct Keyframe {
  double t = 0.0;
  Vec3 translation = Vec3::Zero();
  Vec3 rotation_deg = Vec3::Zero();
};

/// Piecewise-linear interpolation of keyframes in time (translation and Euler
/// angles), holding the first keyframe before it and the last one after it.
class Motion {
public:
  Motion() = default;
  /// Keyframes must have strictly increasing times (checked by the scene loader).
  explicit Motion(std::vector<Keyframe> keyframes) : keyframes_(std::move(keyframes)) {}

  bool empty() const { return keyframes_.empty(); }
  Keyframe at(double t) const;
  /// Position at time t of a point whose rest position is `rest`, moving about `pivot`.
  Vec3 apply(double t, const Vec3& rest, const Vec3& pivot) const;

private:
  std::vector<Keyframe> keyframes_;
};

}  // namespace eipc
