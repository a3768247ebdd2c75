#include "eipc/dynamics/contact_queries.hpp"

#include "eipc/broad_phase/broad_phase.hpp"
#include "eipc/ccd/collision_free_step.hpp"

#include <algorithm>
#include <limits>

namespace eipc {

ContactQueries::ContactQueries(const DofSystem& system, const SimulationParams& params, PhaseTimes& times)
    : sys_(system),
      params_(params),
      times_(times),
      candidates_(params.contact.dhat, kMinSkin * params.contact.dhat, kMaxSkin * params.contact.dhat,
                  kContactSkin * params.contact.dhat, ccd_stop_fraction(params.solver.ccd_separation_ratio),
                  kPatchMinStretch, AffinePatches::kStraddleReach) {}

PatchStretchBound patch_stretch_bound(double min_stretch, double ccd_separation_ratio, double dhat,
                                      double max_contact_offset) {
  // A pair left out is at least min_stretch times its rest distance apart;
  // the CCD keeps ccd_separation_ratio of each pair's distance, which is at
  // most the largest stretch times the rest distance: with that stretch below
  // min_stretch / ratio the pair would never have stopped a step. Half that:
  // the additive CCD stops a pair once it has lost 90% of the gap down to the
  // kept distance (with ratio 0.1, at 0.19 of its distance).
  const double ratio = ccd_separation_ratio;
  const double max_stretch = ratio > 0.0 ? 0.5 * min_stretch / ratio : std::numeric_limits<double>::infinity();
  // A pair at contact offset o (a shell's, within one coarse triangle) keeps
  // only the gap s D - o of its rest distance D, and the CCD may stop it at
  // o + F (d0 - o), F = ccd_stop_fraction (0.19): with d0 <= S D, it cannot
  // while S < s / F (1 - (1 - F) o / reach), worst at the least D = reach / s
  // left out (reach = dhat + the largest offset). max_stretch is at most s / F.
  const double reach = dhat + max_contact_offset;
  return {max_stretch, (1.0 - ccd_stop_fraction(ratio)) / reach};
}

std::vector<char> ContactQueries::trusted_patches(const Positions& q, const Positions& q_end) const {
  const AffinePatches& patches = sys_.collision().patches();
  if (patches.size() == 0 || !params_.solver.affine_patches) return {};  // none trusted: every pair tested
  const PatchStretchBound most = patch_stretch_bound(kPatchMinStretch, params_.solver.ccd_separation_ratio,
                                                     params_.contact.dhat, sys_.collision().mesh().max_contact_offset());
  return patches.trusted(q, q_end, kPatchMinStretch, most.max_stretch, most.offset_loss);
}

double ContactQueries::collision_free_fraction(const Positions& q, const Positions& dq,
                                               const ContactSet* contacts) const {
  const Positions q1 = q + dq;
  const std::shared_ptr<const Positions> at0 = sys_.collision().shared_positions(q);
  const std::shared_ptr<const Positions> at1 = sys_.collision().shared_positions(q1);
  const Positions& x0 = *at0;
  const Positions& x1 = *at1;
  // No distance (pair or ground) changes by more than twice the largest vertex
  // move, and every pair's gap (its distance beyond its offset) is at least
  // min(dhat, closest contact's), so a move that cannot close (1 - ratio) of
  // that keeps every pair above the CCD's separation without any collision test.
  if (contacts) {
    const double closest = std::min(params_.contact.dhat, closest_contact_gap(*contacts, x0));
    const double move = x0.rows() > 0 ? (x1 - x0).rowwise().norm().maxCoeff() : 0.0;
    if (2.0 * move < (1.0 - params_.solver.ccd_separation_ratio) * closest) return 1.0;
  }
  const CandidateLists* candidates;
  {
    ScopedTimer timer(times_.broad_phase);
    candidates = &candidates_.along_lists(sys_.collision().mesh(), at0, at1, trusted_patches(q, q1));
  }
  ScopedTimer timer(times_.ccd);
  return max_collision_free_step(sys_.collision().mesh(), x0, x1, *candidates, params_.ground_height,
                                 params_.solver.ccd_separation_ratio,
                                 candidates_.distance_bounds(sys_.collision().mesh(), at0, at1));
}

const Candidates& ContactQueries::candidates_near(const Positions& q) const {
  ScopedTimer timer(times_.broad_phase);
  return candidates_.around(sys_.collision().mesh(), sys_.collision().shared_positions(q), trusted_patches(q, q));
}

ContactSet ContactQueries::contacts_at(const Positions& q) const {
  const std::shared_ptr<const Positions> at = sys_.collision().shared_positions(q);
  const Positions& x = *at;
  const Candidates* c;
  {
    ScopedTimer timer(times_.broad_phase);
    c = &candidates_.for_contacts(sys_.collision().mesh(), at, trusted_patches(q, q));
  }
  return build_contact_set(sys_.collision().mesh(), x, *c, params_.contact.dhat, params_.ground_height);
}

}  // namespace eipc
