#include "eipc/friction/friction_regime.hpp"

#include "eipc/friction/friction_potential.hpp"

#include <algorithm>

namespace eipc {

namespace {

FrictionContactKey key_of(const FrictionContact& c) { return {static_cast<int>(c.kind), c.vertices}; }

bool sticks(const FrictionContact& c, const Positions& x, const Positions& x_n, double epsv_h) {
  return friction_relative_displacement(c, x, x_n).norm() <= epsv_h;
}

}  // namespace

std::vector<FrictionContactKey> sticking_contacts(const Positions& x, const Positions& x_n, const FrictionSet& friction) {
  std::vector<FrictionContactKey> keys;
  for (const FrictionContact& c : friction.contacts)
    if (c.normal_force > 0 && sticks(c, x, x_n, friction.epsv_h)) keys.push_back(key_of(c));
  std::sort(keys.begin(), keys.end());
  return keys;
}

bool any_started_sliding(const std::vector<FrictionContactKey>& was_sticking, const Positions& x, const Positions& x_n,
                         const FrictionSet& friction) {
  if (was_sticking.empty()) return false;
  for (const FrictionContact& c : friction.contacts)
    if (!sticks(c, x, x_n, friction.epsv_h) && std::binary_search(was_sticking.begin(), was_sticking.end(), key_of(c)))
      return true;
  return false;
}

}  // namespace eipc
