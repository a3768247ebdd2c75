// Collision-free step length for a straight motion of the whole collision mesh
// (the CCD clamp of the Newton line search).
#pragma once

#include "eipc/collisions/collision_mesh.hpp"
#include "eipc/collisions/remembered_gaps.hpp"

#include <optional>

namespace eipc {

/// The largest alpha in [0, 1] (conservatively) such that the straight motion
/// x0 -> x0 + alpha (x1 - x0) keeps every surface pair and, if `ground_height`
/// is set, every vertex and the plane z = ground_height apart.
///
/// Candidates: the pairs whose swept boxes overlap in the frame that follows
/// the mean translation, find_candidates(mesh, x0, follow_mean_translation(x0, x1), ~0)
/// (a common translation changes no distance, and swept boxes that do not
/// overlap cannot collide; the boxes are grown by a few ulps against the
/// round-off of the frame change; by the largest contact offset too). As in IPC,
/// each pair (and each vertex against the ground) is stepped with additive CCD
/// to a minimum separation xi = o + min_distance_ratio * (d(x0) - o), d(x0) its
/// current distance and o its contact offset (CollisionMesh::contact_offset, 0
/// without shells), so a step never closes its gap d - o (e.g. ratio 0.1 keeps at
/// least ~10% of the gap).
/// alpha = min(1, min over pairs of toi). A pair already touching (d(x0) = 0) or a
/// vertex on or below the ground gives alpha = 0. Per-pair tois are computed in
/// parallel; the minimum does not depend on the thread count.
double max_collision_free_step(const CollisionMesh& mesh, const Positions& x0, const Positions& x1,
                               std::optional<double> ground_height, double min_distance_ratio);

/// The same over the pairs of `superset` whose swept boxes overlap in their
/// frame: a pair within one body in the frame that follows that body's mean
/// translation (follow_body_translations), a pair between bodies in the one
/// above (pairs whose boxes do not overlap in some translating frame cannot
/// collide). The result equals the overload above when `superset` holds every
/// pair whose boxes overlap in its frame, or at least every such pair this
/// motion could stop (one that keeps more than ccd_stop_fraction of its
/// distance all along never does): e.g. CandidateCache::along, so one broad
/// phase serves both.
double max_collision_free_step(const CollisionMesh& mesh, const Positions& x0, const Positions& x1,
                               const Candidates& superset, std::optional<double> ground_height,
                               double min_distance_ratio);
/// The same over the union of several supersets (CandidateCache::along_lists).
/// bounds[k], where given, bounds the distances at x0 of supersets[k]'s pairs
/// from below (CandidateCache::distance_bounds): the result is the same, and
/// most pairs need not compute their distance at x0.
double max_collision_free_step(const CollisionMesh& mesh, const Positions& x0, const Positions& x1,
                               const CandidateLists& supersets, std::optional<double> ground_height,
                               double min_distance_ratio, const std::vector<PairDistanceBounds>& bounds = {});

/// The fraction F of its gap at x0 below which max_collision_free_step may
/// stop a pair: the kept gap (min_distance_ratio) plus the additive CCD's
/// stopping gap. A pair d0 apart at x0 at offset o that stays farther than
/// o + F (d0 - o) (at most F d0 + (1 - F) o) all along the move, plus the
/// CCD's round-off allowance (64 ulps of the largest coordinate), never limits
/// the step.
double ccd_stop_fraction(double min_distance_ratio);

}  // namespace eipc
