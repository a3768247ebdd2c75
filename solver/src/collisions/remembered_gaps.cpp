#include "eipc/collisions/remembered_gaps.hpp"

#include "eipc/collisions/contact_set.hpp"

#include <algorithm>
#include <cmath>
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

/// How far each of `vertices` moved from `reference` to x.
template <std::size_t N>
std::array<Eigen::RowVector3d, N> moves(const Positions& x, const Positions& reference, const std::array<int, N>& vertices) {
  std::array<Eigen::RowVector3d, N> m;
  for (std::size_t k = 0; k < N; ++k) m[k] = x.row(vertices[k]) - reference.row(vertices[k]);
  return m;
}

}  // namespace

template <std::size_t NA, std::size_t NB>
double PairDistanceBounds::bound(float gap, const std::array<int, NA>& a, const std::array<int, NB>& b) const {
  if (!std::isfinite(gap)) return -std::numeric_limits<double>::infinity();
  const auto moves_a = moves(*x_, *reference_, a);
  const auto moves_b = moves(*x_, *reference_, b);  // NA and NB may differ: two types
  double apart2 = 0.0;
  for (const Eigen::RowVector3d& i : moves_a)
    for (const Eigen::RowVector3d& j : moves_b) apart2 = std::max(apart2, (i - j).squaredNorm());
  // A relative margin far above the round-off of the moves (each exact where x
  // is near the reference) and of the norm.
  return double(gap) - std::sqrt(apart2) * (1.0 + 1e-9);
}

double PairDistanceBounds::point_triangle(std::size_t i, const PointTriangleCandidate& c) const {
  const auto& f = mesh_->faces;
  return bound(gaps_[i], std::array<int, 1>{c.vertex}, std::array<int, 3>{f(c.face, 0), f(c.face, 1), f(c.face, 2)});
}

double PairDistanceBounds::edge_edge(std::size_t i, const EdgeEdgeCandidate& c) const {
  const auto& e = mesh_->edges;
  return bound(gaps_[point_triangles_ + i], std::array<int, 2>{e(c.edge_a, 0), e(c.edge_a, 1)},
               std::array<int, 2>{e(c.edge_b, 0), e(c.edge_b, 1)});
}

PairDistanceBounds RememberedGaps::bounds_at(const CollisionMesh& mesh, const Positions& x,
                                             const Candidates& candidates) const {
  if (gaps_.size() != candidates.size() || !reference_ || reference_->rows() != x.rows()) return {};
  return PairDistanceBounds(mesh, gaps_, candidates.point_triangle.size(), *reference_, x);
}

const PairIndices& RememberedGaps::closer_than(const Candidates& candidates, double far) {
  if (closer_far_ != far) {
    closer_ = PairIndices{};
    const std::size_t point_triangles = candidates.point_triangle.size();
    for (std::size_t i = 0; i < gaps_.size(); ++i)
      if (!(double(gaps_[i]) >= far))
        (i < point_triangles ? closer_.point_triangle : closer_.edge_edge)
            .push_back(int(i < point_triangles ? i : i - point_triangles));
    closer_far_ = far;
  }
  return closer_;
}

void RememberedGaps::carry(const Candidates& then, const Candidates& now) {
  closer_far_ = -1.0;
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

Candidates RememberedGaps::within(const CollisionMesh& mesh, const SharedPositions& x, const Candidates& candidates,
                                  double distance, const PrimitiveRanges* primitives) {
  if (gaps_.size() != candidates.size() || !reference_ || reference_->rows() != x->rows()) {
    gaps_.assign(candidates.size(), -std::numeric_limits<float>::infinity());
    reference_ = x;
  }
  Candidates out = candidates_within(mesh, *x, candidates, distance, gaps_, *x - *reference_, primitives);
  reference_ = x;
  closer_far_ = -1.0;
  return out;
}

}  // namespace eipc
