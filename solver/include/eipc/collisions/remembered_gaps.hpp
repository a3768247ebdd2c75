// Lower bounds of the distances of a candidate list's pairs, kept from one
// contact filtering to the next and through rebuilds of the list, so that a
// filtering computes distances only for pairs that could have come within
// its distance: a pair's gap less the relative move of its vertices since.
// On a fine surface most pairs are a body's pairs with itself whose vertices
// move almost together (the 50k ball: 1.26 M pairs, ~6 k near).
#pragma once

#include "eipc/collisions/collision_mesh.hpp"

#include <vector>

namespace eipc {

class RememberedGaps {
public:
  /// The pairs of `candidates` closer than `distance` at x: the pairs and
  /// order of candidates_within(mesh, x, candidates, distance). The
  /// candidates are those of the last call, or of the last carry().
  Candidates within(const CollisionMesh& mesh, const Positions& x, const Candidates& candidates, double distance);

  /// The candidate list changes from `then` (the list of the last call) to
  /// `now` (both sorted as Candidates says): the pairs in both keep their gaps,
  /// the others have none yet.
  void carry(const Candidates& then, const Candidates& now);

private:
  std::vector<float> gaps_;  ///< per pair (point-triangle first): its distance is at least this at reference_
  Positions reference_;      ///< empty: no gap known
};

}  // namespace eipc
