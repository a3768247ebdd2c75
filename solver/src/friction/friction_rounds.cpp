#include "eipc/friction/friction_rounds.hpp"

#include "eipc/friction/friction_regime.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace eipc {

double relative_normal_force_change(const FrictionSet& before, const FrictionSet& after) {
  const auto key = [](const FrictionContact& c) { return FrictionContactKey{static_cast<int>(c.kind), c.vertices}; };
  std::map<FrictionContactKey, double> old_force;
  for (const FrictionContact& c : before.contacts) old_force[key(c)] = c.normal_force;
  double largest = 0.0, change = 0.0;
  for (const FrictionContact& c : after.contacts) {
    largest = std::max(largest, c.normal_force);
    const auto it = old_force.find(key(c));
    if (it == old_force.end()) {
      change = std::max(change, c.normal_force);
      continue;
    }
    change = std::max(change, std::abs(c.normal_force - it->second));
    old_force.erase(it);
  }
  for (const auto& gone : old_force) change = std::max(change, gone.second);  // contacts that opened
  if (largest == 0.0) return change == 0.0 ? 0.0 : 1.0;
  return change / largest;
}

}  // namespace eipc
