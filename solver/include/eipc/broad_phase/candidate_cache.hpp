// Broad-phase candidates kept across Newton iterations and time steps (a
// "skin" or Verlet list), in groups that each follow their own motion: the
// pairs within each body and the pairs between bodies. Distances do not change
// under a rigid motion, so each group's cache is reused while the group's
// vertices stay within its skin of the reference after their mean translation
// or, within a body, after the rigid motion that best follows them (least
// squares over the group's vertices): a gripper finger carried 2 mm and turned
// 26 mrad a step moves its own close pairs only by how much it deforms, and a
// gripper lifting what it holds keeps the pairs between them.
//
// A group's candidates are its pairs closer than `inflation` = dhat + 2 skin
// at the reference. Every pair left out is then, at positions that are the
// reference rigidly moved plus at most `skin` per vertex, farther than dhat;
// and along a straight move between two such positions it stays out of
// contact and keeps more of its distance than the CCD could stop it at, when
// the turn between the two ends is small (`keeps`, docs/performance.md). So
// the contacts and the CCD step over the cache are exactly those over every
// pair. A group is rebuilt when that no longer holds, at the positions halfway
// along the sweep asked about (its ends then lie half its deviation away, and
// Newton's next positions are usually at its end); a sweep longer than twice
// the largest skin beyond its rigid part gets a one-off broad phase of its own
// (for that group only), in the frame that follows the group's mean translation.
// A body that is one trusted convex region (AffinePatches) needs no broad
// phase at all: its group is then its pairs close at rest. A rigid body
// (CollisionMesh::rigid_body, a kinematic one) has no group of its own pairs,
// and with one in the scene the pairs between bodies are two groups: those
// between deforming bodies, which follow only them (turns too), and those
// with a rigid body.
//
// With shells in the mesh, "dhat" above and below is the reach dhat + the
// largest contact offset (CollisionMesh::max_contact_offset): every pair whose
// gap is below dhat is closer than that, and the CCD may stop a pair up to
// its offset's share higher (ccd_stop_fraction). Without shells it is dhat.
#pragma once

#include "eipc/broad_phase/broad_phase.hpp"
#include "eipc/collisions/remembered_gaps.hpp"
#include "eipc/geometry/rigid_fit.hpp"

#include <vector>

namespace eipc {

class CandidateCache {
public:
  /// `dhat`: contact distance; skins are between min_skin and max_skin;
  /// `contact_skin` (<= min_skin) is the skin of the contact candidates.
  /// `ccd_stop_fraction`: a pair that keeps more than this fraction of its
  /// distance along a move never limits the CCD (ccd_stop_fraction()).
  /// `patch_min_stretch` (> 0): pairs within one trusted affine patch or
  /// convex region (CollisionMesh::vertex_patch, vertex_region) closer than
  /// dhat / patch_min_stretch at rest, plus `straddle_reach` times the longest
  /// edge of a primitive of theirs that straddles patches, are kept, the
  /// others left out; 0: none left out.
  CandidateCache(double dhat, double min_skin, double max_skin, double contact_skin, double ccd_stop_fraction,
                 double patch_min_stretch = 0.0, double straddle_reach = 1.0);

  /// `trusted` (every query): for each affine patch, whether its map shortens
  /// no direction below patch_min_stretch at the positions asked about (and
  /// along the sweep); empty: no patch trusted. The sets below then leave out
  /// the trusted patches' pairs that are not close at rest: those stay at
  /// least dhat apart and cannot collide (docs/performance.md).
  ///
  /// For every group, a superset of its pairs that come within dhat anywhere
  /// on the straight move x0 -> x1 and of those the CCD of that move could
  /// stop (max_collision_free_step over it equals the step over every pair),
  /// in a fixed order: the groups one after the other, each sorted as
  /// Candidates says.
  const Candidates& along(const CollisionMesh& mesh, const SharedPositions& x0, const SharedPositions& x1,
                          const std::vector<char>& trusted = {});
  /// The calls below on plain positions fit nothing again from call to call
  /// (each call shares a copy of its positions); the shared ones key the
  /// groups' fit memos on their pointers (FitMemo).
  const Candidates& along(const CollisionMesh& mesh, const Positions& x0, const Positions& x1,
                          const std::vector<char>& trusted = {});
  /// The same sets, one per group, not copied into one (valid until the next call).
  const CandidateLists& along_lists(const CollisionMesh& mesh, const SharedPositions& x0, const SharedPositions& x1,
                                    const std::vector<char>& trusted = {});
  const CandidateLists& along_lists(const CollisionMesh& mesh, const Positions& x0, const Positions& x1,
                                    const std::vector<char>& trusted = {});
  /// Lower bounds of the distances at x0 of the pairs of the last
  /// along_lists(x0, x1) sets, one entry per set (empty for a one-off): each
  /// group's remembered gaps, from its last contact filtering, less the moves
  /// since. When a group's pairs at least 1.5 dhat (kFarGap) apart there
  /// cannot stop the CCD of x0 -> x1 (the group's motion since and along the
  /// sweep is rigid but for a little, docs/performance.md), the bounds say
  /// which pairs may (PairDistanceBounds::may_stop). Valid while x0, x1 and
  /// the cache are unchanged.
  std::vector<PairDistanceBounds> distance_bounds(const CollisionMesh& mesh, const SharedPositions& x0,
                                                  const SharedPositions& x1);
  std::vector<PairDistanceBounds> distance_bounds(const CollisionMesh& mesh, const Positions& x0, const Positions& x1);
  /// A superset of find_candidates(mesh, x, x, dhat).
  const Candidates& around(const CollisionMesh& mesh, const SharedPositions& x, const std::vector<char>& trusted = {}) {
    return along(mesh, x, x, trusted);
  }
  const Candidates& around(const CollisionMesh& mesh, const Positions& x, const std::vector<char>& trusted = {}) {
    return along(mesh, x, x, trusted);
  }
  /// A smaller superset of find_candidates(mesh, x, x, dhat), for contact sets
  /// only: each group's pairs of around() within dhat + 2 contact_skin at the
  /// last positions the group was filtered at, refiltered when one of its
  /// vertices leaves that skin (after the rigid motion that best follows the
  /// group) or the group is rebuilt.
  /// Newton's iterates move much less than a step's sweep, so one filtering
  /// serves most contact sets of a step.
  const Candidates& for_contacts(const CollisionMesh& mesh, const SharedPositions& x,
                                 const std::vector<char>& trusted = {});
  const Candidates& for_contacts(const CollisionMesh& mesh, const Positions& x, const std::vector<char>& trusted = {});

  /// Group rebuilds so far (every group's first build counts).
  int rebuilds() const;

private:
  /// The pairs within one body (body >= 0) or between bodies (body < 0, of
  /// the body pairs `pairs` says).
  struct Group {
    int body = -1;
    BodyPairs pairs = BodyPairs::all;
    std::vector<int> vertices;  ///< whose motion the group follows
    SharedPositions reference;
    double skin = -1.0;  ///< < 0: no reference yet
    double inflation = 0.0;  ///< cached: the pairs closer than this at reference
    double scale = 0.0;      ///< the reference's largest |coordinate|
    Candidates cached;
    Candidates one_off;
    /// How far the last contact filtering's positions (gaps.reference()) lay
    /// from `reference` after the fit that follows the group.
    double contact_deviation = 0.0;
    Candidates for_contacts;
    int contact_generation = -1;  ///< rebuilds when for_contacts was filtered from cached
    /// Of cached's pairs, kept through rebuilds for the pairs found again; its
    /// reference is where for_contacts was last filtered (null: not yet).
    RememberedGaps gaps;
    std::vector<char> trusted;  ///< the patches trusted when `cached` was found (its own ones left pairs out)
    std::vector<int> pieces;    ///< the patches and regions its vertices lie in: the only ones it depends on
    /// A body's group: the index ranges [first, last) holding its faces and
    /// edges (all its pairs' primitives), so that a refiltering makes the move
    /// balls of these only. Empty (last <= first): the whole mesh's.
    int first_face = 0, last_face = 0, first_edge = 0, last_edge = 0;
    int rebuilds = 0;  ///< times `cached` was replaced
    int region = -1;   ///< the convex region holding the whole group (-1: none)
    Candidates region_pairs;  ///< the region's pairs at risk: all it needs while trusted
    bool in_region = false;   ///< `cached` holds region_pairs
    BroadPhaseTrees trees;    ///< its rebuilds' box trees, refit by the next one
    mutable FitMemo fits;     ///< its vertices' last fits
    /// Whether the group may follow a turn: a body's pairs with itself, or
    /// the pairs between deforming bodies (a gripper and what it holds). The
    /// others hold what stands still too (a rack).
    bool turns() const { return body >= 0 || pairs == BodyPairs::deforming; }
    /// Whether the group follows the frame in which the CCD tests its pairs'
    /// swept boxes (the mean translation of its body's vertices, or of every
    /// vertex for the pairs between bodies). The pairs it leaves out then fail
    /// that test; otherwise only the bound of `holds` leaves them out.
    bool ccd_frame() const { return pairs != BodyPairs::deforming; }
  };
  /// Does g.cached hold every pair in contact at x0 and x1 and on the straight
  /// move between them, and every pair the CCD of that move could stop?
  /// `deviation0`, when given and fitted: how far x0 lies from the reference
  /// after the fit that follows the group.
  bool keeps(const Group& g, const SharedPositions& x0, const SharedPositions& x1, double* deviation0 = nullptr) const;
  /// The same for g's pairs closer than `inflation` at `reference` (largest
  /// |coordinate| `scale`), with `skin` per vertex of room.
  bool covers_move(const SharedPositions& reference, double skin, double inflation, double scale, const Group& g,
                   const SharedPositions& x0, const SharedPositions& x1, double* deviation0 = nullptr) const;
  /// Can none of g's pairs at least `far` apart at its gaps' reference stop
  /// the CCD of x0 -> x1 (whose largest |coordinate| is `scale`)?
  bool far_pairs_cannot_stop(const Group& g, double far, double scale, const SharedPositions& x0,
                             const SharedPositions& x1) const;
  /// The same for pairs closer than `inflation` at a reference whose largest
  /// |coordinate| is `scale`, and two positions fitted to it as at0 and at1.
  bool holds(double inflation, double scale, const RigidFit& at0, const RigidFit& at1) const;
  /// g.cached becomes `now`; the gaps of the pairs in both are kept.
  static void replace_cached(Group& g, Candidates now);
  /// The groups of `mesh` (made at the first call, and again for a mesh of another size).
  void make_groups(const CollisionMesh& mesh);
  /// The group's superset for x0 -> x1: cached, rebuilt, or a one-off (then
  /// sets `one_off`); `deviation0` as for keeps (unchanged for a region or a one-off).
  const Candidates& group_along(Group& g, const CollisionMesh& mesh, const SharedPositions& x0,
                                const SharedPositions& x1, const std::vector<char>& trusted, bool& one_off,
                                double* deviation0 = nullptr);
  /// The group's contact candidates at x; sets `changed` when they were refiltered.
  const Candidates& group_for_contacts(Group& g, const CollisionMesh& mesh, const SharedPositions& x,
                                       const std::vector<char>& trusted, bool& changed);

  double dhat_, min_skin_, max_skin_, contact_skin_, ccd_stop_fraction_, patch_min_stretch_, straddle_reach_;
  /// Of the mesh the groups were made for: dhat + its largest contact offset,
  /// and how much higher than ccd_stop_fraction times its distance the CCD may
  /// stop a pair at that offset ((1 - fraction) offset).
  double reach_ = 0.0, stop_offset_ = 0.0;
  PatchExclusion exclusion_;  ///< the pairs close at rest, and the trusted patches of the current query
  std::vector<Group> groups_;
  int mesh_vertices_ = -1;
  Candidates along_;                   ///< the groups' last along() sets, concatenated
  std::vector<int> along_generation_;  ///< each group's rebuilds when along_ was concatenated
  bool along_one_off_ = false;         ///< along_ holds a one-off set
  CandidateLists lists_;               ///< the groups' last along_lists() sets
  bool lists_one_off_ = false;         ///< lists_ hold a one-off set
  Candidates for_contacts_;  ///< the groups' last for_contacts() sets, concatenated
};

}  // namespace eipc
