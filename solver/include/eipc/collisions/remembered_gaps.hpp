// Lower bounds of the distances of a candidate list's pairs, kept from one
// contact filtering to the next and through rebuilds of the list, so that a
// filtering computes distances only for pairs that could have come within
// its distance: a pair's gap less the relative move of its vertices since.
// On a fine surface most pairs are a body's pairs with itself whose vertices
// move almost together (the 50k ball: 1.26 M pairs, ~6 k near).
#pragma once

#include "eipc/collisions/collision_mesh.hpp"
#include "eipc/geometry/shared_positions.hpp"

#include <array>
#include <vector>

namespace eipc {

struct PrimitiveRanges;  // contact_set.hpp

/// Positions of some pairs in a candidate list, by kind (ascending).
struct PairIndices {
  std::vector<int> point_triangle, edge_edge;
};

/// Lower bounds of the distances of a candidate list's pairs at positions x:
/// each pair's remembered gap, at the reference, less the largest move of one
/// of its vertices relative to one of the other primitive's since then (no
/// distance between the two primitives changed by more). -infinity where no
/// gap is known. Refers to the gaps and both positions: valid while they are.
class PairDistanceBounds {
public:
  PairDistanceBounds() = default;  ///< none known
  PairDistanceBounds(const CollisionMesh& mesh, const std::vector<float>& gaps, std::size_t point_triangles,
                     const Positions& reference, const Positions& x)
      : mesh_(&mesh), gaps_(gaps.data()), point_triangles_(point_triangles), reference_(&reference), x_(&x) {}
  explicit operator bool() const { return gaps_ != nullptr; }
  /// The bound of the i-th point-triangle pair of the list, c.
  double point_triangle(std::size_t i, const PointTriangleCandidate& c) const;
  /// The bound of the i-th edge-edge pair of the list, c.
  double edge_edge(std::size_t i, const EdgeEdgeCandidate& c) const;
  /// When set, the only pairs of the list that can stop the CCD of the sweep
  /// these bounds are for; the others keep more of their distance all along it
  /// than the CCD stops a pair at (CandidateCache::distance_bounds). Null: any.
  const PairIndices* may_stop() const { return may_stop_; }
  void set_may_stop(const PairIndices* pairs) { may_stop_ = pairs; }

private:
  template <std::size_t NA, std::size_t NB>
  double bound(float gap, const std::array<int, NA>& a, const std::array<int, NB>& b) const;

  const CollisionMesh* mesh_ = nullptr;
  const float* gaps_ = nullptr;  ///< per pair, point-triangle first
  std::size_t point_triangles_ = 0;
  const Positions* reference_ = nullptr;
  const Positions* x_ = nullptr;
  const PairIndices* may_stop_ = nullptr;
};

class RememberedGaps {
public:
  /// The pairs of `candidates` closer than `distance` at x: the pairs and
  /// order of candidates_within(mesh, x, candidates, distance). The
  /// candidates are those of the last call, or of the last carry().
  /// `primitives`: as for candidates_within.
  /// The gaps then hold at x (reference() shares it).
  Candidates within(const CollisionMesh& mesh, const SharedPositions& x, const Candidates& candidates,
                    double distance, const PrimitiveRanges* primitives = nullptr);
  Candidates within(const CollisionMesh& mesh, const Positions& x, const Candidates& candidates, double distance,
                    const PrimitiveRanges* primitives = nullptr) {
    return within(mesh, std::make_shared<const Positions>(x), candidates, distance, primitives);
  }

  /// The candidate list changes from `then` (the list of the last call) to
  /// `now` (both sorted as Candidates says): the pairs in both keep their gaps,
  /// the others have none yet.
  void carry(const Candidates& then, const Candidates& now);

  /// Lower bounds of the distances at x of the pairs of `candidates` (the
  /// list of the last call or carry()); none when no gaps are kept for it.
  PairDistanceBounds bounds_at(const CollisionMesh& mesh, const Positions& x, const Candidates& candidates) const;

  /// The pairs of `candidates` (that list) whose gap is below `far`: every
  /// other one is at least `far` apart at reference(). Kept until the gaps change.
  const PairIndices& closer_than(const Candidates& candidates, double far);
  /// Where the gaps hold (null: none known): the positions of the last within().
  const SharedPositions& reference() const { return reference_; }

private:
  std::vector<float> gaps_;  ///< per pair (point-triangle first): its distance is at least this at reference_
  SharedPositions reference_;  ///< null: no gap known
  PairIndices closer_;       ///< closer_than(closer_far_) of the current gaps
  double closer_far_ = -1.0;  ///< < 0: closer_ not made for these gaps
};

}  // namespace eipc
