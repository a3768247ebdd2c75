// Which friction contacts stick (|u| <= eps_v h, where the smoothed friction is
// stiff: curvature mu lambda 2 / (eps_v h)) and which slide (no curvature along
// the slip). A matrix assembled while a contact stuck is far too stiff along
// that contact's slip once it slides: Newton's chord steps check this.
#pragma once

#include "eipc/friction/friction_set.hpp"

#include <utility>
#include <vector>

namespace eipc {

/// A friction contact across rebuilt friction sets: its kind and vertices.
using FrictionContactKey = std::pair<int, std::array<int, 4>>;

/// Keys of the contacts with |u(x)| <= eps_v h, sorted.
std::vector<FrictionContactKey> sticking_contacts(const Positions& x, const Positions& x_n, const FrictionSet& friction);

/// Whether a contact of `was_sticking` (sticking_contacts at an earlier x) slides at x.
bool any_started_sliding(const std::vector<FrictionContactKey>& was_sticking, const Positions& x, const Positions& x_n,
                         const FrictionSet& friction);

}  // namespace eipc
