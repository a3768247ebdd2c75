// Smallest unsquared distance over candidate pairs and the ground.
#pragma once

#include "eipc/contact/collision_mesh.hpp"

#include <optional>

namespace eipc {

/// min over candidates (pairs sharing a vertex skipped) of the exact primitive distance, and
/// over all vertices of z - ground_height. +infinity when there is nothing to measure.
double minimum_distance(const CollisionMesh& mesh, const Positions& x, const Candidates& candidates,
                        std::optional<double> ground_height = std::nullopt);

}  // namespace eipc
