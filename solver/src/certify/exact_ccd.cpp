#include "eipc/certify/exact_ccd.hpp"

#include "contact_conditions.hpp"

#include <chrono>

namespace eipc::certify {
namespace {

bool finite(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1) {
  for (int i = 0; i < 4; ++i)
    if (!x0[i].allFinite() || !x1[i].allFinite()) return false;
  return true;
}

template <class Filter, class Conditions>
PairDecision decide(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1, Filter filter, Conditions conditions) {
  PairDecision d;
  if (!finite(x0, x1)) return d;
  std::array<double, 2> bracket{0.0, 1.0};
  d.verdict = filter(x0, x1, exact_ccd_filter_budget, &bracket);
  // The filter's bracket stops narrowing where a half is neither separated nor
  // strictly crossing (e.g. touching exactly at its end): the exact path brackets those.
  const bool wide = d.verdict == MotionVerdict::collision && bracket[1] - bracket[0] > exact_ccd_bracket_width;
  if (d.verdict == MotionVerdict::inconclusive || wide) {
    d.exact_path = true;
    const auto start = std::chrono::steady_clock::now();
    const auto first = earliest_contact(conditions(x0, x1));
    d.exact_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    d.verdict = first ? MotionVerdict::collision : MotionVerdict::separated;
    if (first) bracket = *first;
  }
  if (d.verdict == MotionVerdict::collision) { d.t_lo = bracket[0]; d.t_hi = bracket[1]; }
  return d;
}

}  // namespace

PairDecision decide_point_triangle(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1) {
  return decide(x0, x1, point_triangle_motion_test, point_triangle_contact);
}

PairDecision decide_edge_edge(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1) {
  return decide(x0, x1, edge_edge_motion_test, edge_edge_contact);
}

}  // namespace eipc::certify
