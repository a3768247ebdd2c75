// The solver's questions about contact at node positions q, answered over one
// broad phase kept across Newton iterations and steps (CandidateCache): which
// pairs are closer than dhat, and how far a straight move can go collision free
// (the CCD clamp of the line search and of the start of a step).
#pragma once

#include "eipc/broad_phase/candidate_cache.hpp"
#include "eipc/collisions/contact_set.hpp"
#include "eipc/dynamics/dof_system.hpp"
#include "eipc/dynamics/params.hpp"
#include "eipc/dynamics/phase_times.hpp"

namespace eipc {

/// How far an affine patch may stretch at the start of a move for its pairs
/// to be left out (AffinePatches::trusted): max_stretch (1 - offset_loss o)
/// for pairs at contact offset o, so that none of them could have stopped the
/// CCD; for patches that shorten no direction below `min_stretch`.
struct PatchStretchBound {
  double max_stretch;
  double offset_loss;
};
PatchStretchBound patch_stretch_bound(double min_stretch, double ccd_separation_ratio, double dhat,
                                      double max_contact_offset);

class ContactQueries {
public:
  /// Keeps references to all three; `times` receives the broad-phase and CCD seconds.
  ContactQueries(const DofSystem& system, const SimulationParams& params, PhaseTimes& times);

  /// The largest collision-free fraction of the straight move q -> q + dq (CCD
  /// over the cached broad phase). `contacts`: the contacts at q, or nullptr
  /// if unknown; with them, a move too short to close (1 - ccd ratio) of the
  /// smallest distance is collision free without any test.
  double collision_free_fraction(const Positions& q, const Positions& dq, const ContactSet* contacts = nullptr) const;
  /// Candidates holding every pair closer than dhat at q (valid until the next call).
  const Candidates& candidates_near(const Positions& q) const;
  /// The contacts at q (from the cache's contact candidates).
  ContactSet contacts_at(const Positions& q) const;

private:
  /// Skin of the cached broad phase, in units of dhat (see CandidateCache).
  static constexpr double kMinSkin = 2.0, kMaxSkin = 4.0, kContactSkin = 0.25;
  /// Affine patches whose map shortens no direction below this are trusted
  /// (CandidateCache): a patch's pairs farther than dhat / 0.75 apart at rest
  /// need no tests while its tet is compressed by less than 25%.
  static constexpr double kPatchMinStretch = 0.75;

  /// The affine patches trusted at q and along the straight move to q_end.
  std::vector<char> trusted_patches(const Positions& q, const Positions& q_end) const;

  const DofSystem& sys_;
  const SimulationParams& params_;
  PhaseTimes& times_;
  mutable CandidateCache candidates_;
};

}  // namespace eipc
