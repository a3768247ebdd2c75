// Broad-phase candidates kept across Newton iterations and time steps (a
// "skin" or Verlet list), in groups that each follow their own motion: the
// pairs within each body, in a frame that follows that body's mean
// translation, and the pairs between bodies, in a frame that follows the mean
// translation of everything. Distances do not change under a translation
// applied to both primitives of a pair, so each group's frame sees the same
// contacts and collisions; but a gripper finger carried 2 mm a step moves its
// own close triangle pairs only by how much it deforms, and a gripper lifting
// what it holds keeps the pairs between them.
//
// A group's candidates found at reference positions x_ref with inflation
// dhat + 2 r contain every pair of the group that comes within dhat, and every
// pair whose swept boxes overlap in the group's frame, for positions (or
// straight sweeps between positions) that are x_ref moved by a common
// translation plus at most r per vertex of the group. Filtering this superset
// (by distance for contacts, by swept boxes for CCD) gives exactly the group's
// sets a fresh broad phase in that frame would. A group is rebuilt only when
// one of its vertices leaves its skin; a sweep longer than the largest skin gets
// a one-off broad phase of its own (for that group only).
#pragma once

#include "eipc/broad_phase/broad_phase.hpp"
#include "eipc/collisions/remembered_gaps.hpp"

#include <vector>

namespace eipc {

class CandidateCache {
public:
  /// `dhat`: contact distance; skins are between min_skin and max_skin;
  /// `contact_skin` (<= min_skin) is the skin of the contact candidates.
  /// `patch_min_stretch` (> 0): pairs within one trusted affine patch
  /// (CollisionMesh::vertex_patch) closer than dhat / patch_min_stretch at
  /// rest are kept, the patch's other pairs left out; 0: none left out.
  CandidateCache(double dhat, double min_skin, double max_skin, double contact_skin, double patch_min_stretch = 0.0);

  /// `trusted` (every query): for each affine patch, whether its map shortens
  /// no direction below patch_min_stretch at the positions asked about (and
  /// along the sweep); empty: no patch trusted. The sets below then leave out
  /// the trusted patches' pairs that are not close at rest: those stay at
  /// least dhat apart and cannot collide (docs/performance.md).
  ///
  /// For every group, a superset of its pairs whose swept boxes over x0 -> x1
  /// come within dhat in the group's frame (so of the CCD candidates of
  /// x0 -> x1, and of the contacts anywhere on the way), in a fixed order:
  /// the groups one after the other, each sorted as Candidates says.
  const Candidates& along(const CollisionMesh& mesh, const Positions& x0, const Positions& x1,
                          const std::vector<char>& trusted = {});
  /// A superset of find_candidates(mesh, x, x, dhat).
  const Candidates& around(const CollisionMesh& mesh, const Positions& x, const std::vector<char>& trusted = {}) {
    return along(mesh, x, x, trusted);
  }
  /// A smaller superset of find_candidates(mesh, x, x, dhat), for contact sets
  /// only: each group's pairs of around() within dhat + 2 contact_skin at the
  /// last positions the group was filtered at, refiltered when one of its
  /// vertices leaves that skin (in the group's frame) or the group is rebuilt.
  /// Newton's iterates move much less than a step's sweep, so one filtering
  /// serves most contact sets of a step.
  const Candidates& for_contacts(const CollisionMesh& mesh, const Positions& x, const std::vector<char>& trusted = {});

  /// Group rebuilds so far (every group's first build counts).
  int rebuilds() const;

private:
  /// The pairs within one body (body >= 0) or between bodies (body < 0).
  struct Group {
    int body = -1;
    std::vector<int> vertices;  ///< whose mean displacement the group's frame follows
    Positions reference;
    double skin = -1.0;  ///< < 0: no reference yet
    Candidates cached;
    Candidates one_off;
    Positions contact_reference;  ///< empty: no contact candidates yet
    Candidates for_contacts;
    int contact_generation = -1;  ///< rebuilds when for_contacts was filtered from cached
    RememberedGaps gaps;  ///< of cached's pairs, kept through rebuilds for the pairs found again
    std::vector<char> trusted;  ///< the patches trusted when `cached` was found (their pairs left out)
    int rebuilds = 0;
  };
  /// The groups of `mesh` (made at the first call, and again for a mesh of another size).
  void make_groups(const CollisionMesh& mesh);
  /// The group's superset for x0 -> x1: cached, rebuilt, or a one-off (then sets `one_off`).
  const Candidates& group_along(Group& g, const CollisionMesh& mesh, const Positions& x0, const Positions& x1,
                                const std::vector<char>& trusted, bool& one_off);
  /// The group's contact candidates at x; sets `changed` when they were refiltered.
  const Candidates& group_for_contacts(Group& g, const CollisionMesh& mesh, const Positions& x,
                                       const std::vector<char>& trusted, bool& changed);

  double dhat_, min_skin_, max_skin_, contact_skin_, patch_min_stretch_;
  PatchExclusion exclusion_;  ///< the pairs close at rest, and the trusted patches of the current find
  std::vector<Group> groups_;
  int mesh_vertices_ = -1;
  Candidates along_;                   ///< the groups' last along() sets, concatenated
  std::vector<int> along_generation_;  ///< each group's rebuilds when along_ was concatenated
  bool along_one_off_ = false;         ///< along_ holds a one-off set
  Candidates for_contacts_;  ///< the groups' last for_contacts() sets, concatenated
  BroadPhaseTrees trees_;    ///< every rebuild's box trees, refit by the next one
};

}  // namespace eipc
