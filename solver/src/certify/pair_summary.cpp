// Trajectory-level summaries of the per-frame penetration measurements.
#include "eipc/certify/certify.hpp"

#include <climits>
#include <map>

namespace eipc::certify {

std::size_t CertifyReport::intersecting_frames() const {
  std::size_t n = 0;
  for (const auto& f : frames) n += !f.pairs.empty();
  return n;
}

std::vector<PairSummary> CertifyReport::pair_summaries() const {
  std::map<std::pair<int, int>, PairSummary> by_pair;  // keyed with the ground after every body
  for (const FrameReport& f : frames)
    for (const PairPenetration& p : f.pairs) {
      PairSummary& s = by_pair[{p.body_a, p.body_b == kGround ? INT_MAX : p.body_b}];
      if (s.frames++ == 0) {
        s.body_a = p.body_a;
        s.body_b = p.body_b;
        s.first_frame = f.frame;
        s.first_time = f.time;
      }
      if (p.deepest && (!s.deepest || p.deepest->depth > s.deepest->depth)) {
        s.deepest = p.deepest;
        s.deepest_frame = f.frame;
      }
      if (p.a_in_b || p.b_in_a)
        s.max_inside = std::max(s.max_inside.value_or(0), p.a_in_b.value_or(0) + p.b_in_a.value_or(0));
    }
  std::vector<PairSummary> out;
  for (auto& [key, s] : by_pair) out.push_back(s);
  return out;
}

}  // namespace eipc::certify
