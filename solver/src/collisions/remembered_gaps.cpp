#include "eipc/collisions/remembered_gaps.hpp"

#include "eipc/collisions/contact_set.hpp"

#include <limits>

namespace eipc {
namespace {

/// Appends to `gaps` the gap of each of `now`'s pairs in the sorted list
/// `then` (whose gaps start at then_gaps[offset]), -infinity for the others.
template <class Candidate>
void carry_list(const std::vector<Candidate>& then, const std::vector<float>& then_gaps, std::size_t offset,
                const std::vector<Candidate>& now, std::vector<float>& gaps) {
  std::size_t j = 0;
  for (const Candidate& c : now) {
    while (j < then.size() && then[j] < c) ++j;
    const bool found = j < then.size() && then[j] == c;
    gaps.push_back(found ? then_gaps[offset + j] : -std::numeric_limits<float>::infinity());
  }
}

}  // namespace

void RememberedGaps::carry(const Candidates& then, const Candidates& now) {
  std::vector<float> gaps;
  gaps.reserve(now.size());
  if (gaps_.size() == then.size()) {
    carry_list(then.point_triangle, gaps_, 0, now.point_triangle, gaps);
    carry_list(then.edge_edge, gaps_, then.point_triangle.size(), now.edge_edge, gaps);
  } else {
    gaps.assign(now.size(), -std::numeric_limits<float>::infinity());
  }
  gaps_ = std::move(gaps);
}

Candidates RememberedGaps::within(const CollisionMesh& mesh, const Positions& x, const Candidates& candidates,
                                  double distance) {
  if (gaps_.size() != candidates.size() || reference_.rows() != x.rows()) {
    gaps_.assign(candidates.size(), -std::numeric_limits<float>::infinity());
    reference_ = x;
  }
  Candidates out = candidates_within(mesh, x, candidates, distance, gaps_, x - reference_);
  reference_ = x;
  return out;
}

}  // namespace eipc
