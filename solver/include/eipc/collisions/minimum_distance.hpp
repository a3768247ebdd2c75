// Smallest unsquared distance over candidate pairs and the ground.
#pragma once

#include "eipc/collisions/collision_mesh.hpp"
#include "eipc/collisions/contact_set.hpp"

#include <optional>

namespace eipc {

/// min over candidates (pairs sharing a vertex skipped) of the exact primitive distance, and
/// over all vertices of z - ground_height. +infinity when there is nothing to measure.
double minimum_distance(const CollisionMesh& mesh, const Positions& x, const Candidates& candidates,
                        std::optional<double> ground_height = std::nullopt);

/// The same from the contacts of x when there are any: every pair closer than
/// dhat is a contact, so the closest one is among them. Only when nothing is
/// within dhat are `candidates()` asked for (a cache may have to find them)
/// and measured.
template <class GetCandidates>
double minimum_distance(const CollisionMesh& mesh, const Positions& x, const ContactSet& contacts,
                        GetCandidates&& candidates) {
  if (contacts.empty()) return minimum_distance(mesh, x, candidates(), contacts.ground_height);
  return closest_contact_distance(contacts, x);
}

}  // namespace eipc
