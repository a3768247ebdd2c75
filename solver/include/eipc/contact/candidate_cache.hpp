// Broad-phase candidates kept across Newton iterations and time steps (a
// "skin" or Verlet list): candidates found at reference positions x_ref with
// inflation dhat + 2 r contain every pair that comes within dhat, and every pair
// whose un-inflated swept boxes overlap, for any positions (or straight sweeps
// between positions) whose vertices all stay within r of x_ref: each primitive's
// box moves by at most r per axis. Filtering this superset (by distance for
// contacts, by swept boxes for CCD) gives exactly the sets a fresh broad phase
// would, in the same order, so results do not change. It is rebuilt only when
// a vertex leaves its skin.
#pragma once

#include "eipc/contact/broad_phase.hpp"

namespace eipc {

class CandidateCache {
public:
  /// `dhat`: contact distance; skins are between min_skin and max_skin.
  CandidateCache(double dhat, double min_skin, double max_skin);

  /// A superset of find_candidates(mesh, x0, x1, dhat) (and so of the CCD
  /// candidates of x0 -> x1). Rebuilds at x0 when a vertex of x0 or x1 is
  /// farther than the skin from the reference; a sweep longer than max_skin
  /// gets a one-off broad phase of its own.
  const Candidates& along(const CollisionMesh& mesh, const Positions& x0, const Positions& x1);
  /// A superset of find_candidates(mesh, x, x, dhat).
  const Candidates& around(const CollisionMesh& mesh, const Positions& x) { return along(mesh, x, x); }

  int rebuilds() const { return rebuilds_; }

private:
  bool covers(const Positions& x) const;

  double dhat_, min_skin_, max_skin_;
  Positions reference_;
  double skin_ = -1.0;  ///< < 0: no reference yet
  Candidates cached_;
  Candidates one_off_;
  int rebuilds_ = 0;
};

}  // namespace eipc
