#include "eipc/dynamics/motion.hpp"

#include "eipc/mesh/transform.hpp"

#include <algorithm>
#include <cmath>

namespace eipc {

Keyframe Motion::at(double t) const {
  if (keyframes_.empty()) return Keyframe{t};
  if (t <= keyframes_.front().t) return keyframes_.front();
  if (t >= keyframes_.back().t) return keyframes_.back();
  const auto next = std::upper_bound(keyframes_.begin(), keyframes_.end(), t,
                                     [](double time, const Keyframe& k) { return time < k.t; });
  const Keyframe& b = *next;
  const Keyframe& a = *(next - 1);
  const double s = (t - a.t) / (b.t - a.t);
  return Keyframe{t, (1 - s) * a.translation + s * b.translation,
                  (1 - s) * a.rotation_deg + s * b.rotation_deg};
}

Vec3 Motion::apply(double t, const Vec3& rest, const Vec3& pivot) const {
  const Keyframe k = at(t);
  return pivot + rotation_xyz_deg(k.rotation_deg) * (rest - pivot) + k.translation;
}

}  // namespace eipc
