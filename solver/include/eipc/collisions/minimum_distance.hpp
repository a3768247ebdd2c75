// Smallest gap over candidate pairs and the ground: the unsquared distance less
// the pair's contact offset (CollisionMesh::contact_offset; 0 without shells).
#pragma once

#include "eipc/collisions/collision_mesh.hpp"
#include "eipc/collisions/contact_set.hpp"

#include <limits>
#include <optional>

namespace eipc {

/// min over candidates (pairs sharing a vertex skipped) of the exact primitive distance less the
/// pair's offset, and over all vertices of z - ground_height less theirs. +infinity when there
/// is nothing to measure.
double minimum_distance(const CollisionMesh& mesh, const Positions& x, const Candidates& candidates,
                        std::optional<double> ground_height = std::nullopt);

/// The closest two bodies of x: the smallest gap over candidates joining two
/// different bodies, and over every vertex's height above the ground (body_b = -1);
/// pairs of kinematic (rigid) bodies, and kinematic bodies over the ground, left out.
struct BodyGap {
  double distance = std::numeric_limits<double>::infinity();
  int body_a = -1, body_b = -1;
};
BodyGap closest_bodies(const CollisionMesh& mesh, const Positions& x, const Candidates& candidates,
                       std::optional<double> ground_height = std::nullopt);

/// The same from the contacts of x when there are any: every pair with a gap
/// below dhat is a contact, so the closest one is among them. Only when nothing is
/// within dhat are `candidates()` asked for (a cache may have to find them)
/// and measured.
template <class GetCandidates>
double minimum_distance(const CollisionMesh& mesh, const Positions& x, const ContactSet& contacts,
                        GetCandidates&& candidates) {
  if (contacts.empty()) return minimum_distance(mesh, x, candidates(), contacts.ground_height);
  return closest_contact_gap(contacts, x);
}

}  // namespace eipc
