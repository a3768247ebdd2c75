// Broad-phase candidates kept across Newton iterations and time steps (a
// "skin" or Verlet list). Candidates found at reference positions x_ref with
// inflation dhat + 2 r contain every pair that comes within dhat, and every pair
// whose swept boxes overlap in the frame that follows the mean translation
// (see follow_mean_translation), for any positions (or straight sweeps between
// positions) that are x_ref moved by a common translation plus at most r per
// vertex: distances do not change under a common translation, and each
// primitive's box moves by at most r per axis relative to the others. The
// translation is the mean displacement from x_ref, so a gripper lifting what
// it holds keeps its candidates. Filtering this superset (by distance for
// contacts, by swept boxes for CCD) gives exactly the sets a fresh broad phase
// in that frame would, in the same order, so results do not change. It is
// rebuilt only when a vertex leaves its skin.
#pragma once

#include "eipc/contact/broad_phase.hpp"

namespace eipc {

class CandidateCache {
public:
  /// `dhat`: contact distance; skins are between min_skin and max_skin;
  /// `contact_skin` (<= min_skin) is the skin of the contact candidates.
  CandidateCache(double dhat, double min_skin, double max_skin, double contact_skin);

  /// A superset of find_candidates(mesh, x0, follow_mean_translation(x0, x1), dhat)
  /// (and so of the CCD candidates of x0 -> x1, and of the contacts anywhere
  /// on the way). Rebuilds at x0 when a vertex of x0 or x1, after removing the
  /// mean displacement, is farther than the skin from the reference; a sweep
  /// longer than max_skin in that frame gets a one-off broad phase of its own.
  const Candidates& along(const CollisionMesh& mesh, const Positions& x0, const Positions& x1);
  /// A superset of find_candidates(mesh, x, x, dhat).
  const Candidates& around(const CollisionMesh& mesh, const Positions& x) { return along(mesh, x, x); }
  /// A smaller superset of find_candidates(mesh, x, x, dhat), for contact sets
  /// only: the pairs of around() within dhat + 2 contact_skin at the last
  /// positions it was filtered at, refiltered when a vertex leaves that skin
  /// or around() is rebuilt.
  /// Newton's iterates move much less than a step's sweep, so one filtering
  /// serves most contact sets of a step.
  const Candidates& for_contacts(const CollisionMesh& mesh, const Positions& x);

  int rebuilds() const { return rebuilds_; }

private:
  double dhat_, min_skin_, max_skin_, contact_skin_;
  Positions reference_;
  double skin_ = -1.0;  ///< < 0: no reference yet
  Candidates cached_;
  Candidates one_off_;
  Positions contact_reference_;  ///< empty: no contact candidates yet
  Candidates for_contacts_;
  int contact_generation_ = -1;  ///< rebuilds_ when for_contacts_ was filtered from cached_
  int rebuilds_ = 0;
};

}  // namespace eipc
