#include "eipc/contact/candidate_cache.hpp"

#include "eipc/contact/contact_set.hpp"

#include <algorithm>

namespace eipc {

namespace {

/// Is every vertex of x within `skin` of `reference` after removing the mean displacement?
bool covers(const Positions& reference, double skin, const Positions& x) {
  if (skin < 0.0 || x.rows() != reference.rows() || x.rows() == 0) return false;
  const Eigen::RowVector3d translation = (x - reference).colwise().mean();
  const double r2 = skin * skin;
  for (Eigen::Index v = 0; v < x.rows(); ++v)
    if ((x.row(v) - reference.row(v) - translation).squaredNorm() > r2) return false;
  return true;
}

}  // namespace

CandidateCache::CandidateCache(double dhat, double min_skin, double max_skin, double contact_skin)
    : dhat_(dhat),
      min_skin_(min_skin),
      max_skin_(std::max(min_skin, max_skin)),
      contact_skin_(std::min(contact_skin, min_skin)) {}

const Candidates& CandidateCache::for_contacts(const CollisionMesh& mesh, const Positions& x) {
  // A pair within dhat at x is in cached_ (which covers x) and, x being within
  // contact_skin of contact_reference_, was within dhat + 2 contact_skin there.
  if (contact_generation_ == rebuilds_ && covers(reference_, skin_, x) &&
      covers(contact_reference_, contact_skin_, x))
    return for_contacts_;
  for_contacts_ = candidates_within(mesh, x, around(mesh, x), dhat_ + 2.001 * contact_skin_);
  contact_reference_ = x;
  contact_generation_ = rebuilds_;
  return for_contacts_;
}

const Candidates& CandidateCache::along(const CollisionMesh& mesh, const Positions& x0, const Positions& x1) {
  if (covers(reference_, skin_, x0) && covers(reference_, skin_, x1)) return cached_;
  const Positions x1_followed = follow_mean_translation(x0, x1);
  const double sweep = x0.rows() > 0 ? (x1_followed - x0).rowwise().norm().maxCoeff() : 0.0;
  if (sweep > max_skin_) {
    one_off_ = find_candidates(mesh, x0, x1_followed, dhat_);
    return one_off_;
  }
  // Room for this sweep and a few more like it.
  skin_ = std::clamp(2.0 * sweep, min_skin_, max_skin_);
  reference_ = x0;
  cached_ = find_candidates(mesh, x0, x0, dhat_ + 2.001 * skin_);  // a hair more against round-off
  ++rebuilds_;
  return cached_;
}

}  // namespace eipc
