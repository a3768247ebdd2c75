#include "eipc/contact/candidate_cache.hpp"

#include <algorithm>

namespace eipc {

CandidateCache::CandidateCache(double dhat, double min_skin, double max_skin)
    : dhat_(dhat), min_skin_(min_skin), max_skin_(std::max(min_skin, max_skin)) {}

bool CandidateCache::covers(const Positions& x) const {
  if (skin_ < 0.0 || x.rows() != reference_.rows()) return false;
  const Eigen::RowVector3d translation = (x - reference_).colwise().mean();
  const double r2 = skin_ * skin_;
  for (Eigen::Index v = 0; v < x.rows(); ++v)
    if ((x.row(v) - reference_.row(v) - translation).squaredNorm() > r2) return false;
  return true;
}

const Candidates& CandidateCache::along(const CollisionMesh& mesh, const Positions& x0, const Positions& x1) {
  if (covers(x0) && covers(x1)) return cached_;
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
