#include "eipc/embedding/largest_move.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace eipc {

LargestMove::LargestMove(const NodeMap& map) {
  // Group ids in order of first vertex: the same grouping on every run.
  std::map<std::array<int, 4>, int> id_of;
  std::vector<int> group(std::size_t(map.size()));
  for (int v = 0; v < map.size(); ++v) {
    std::array<int, 4> key{};
    double sum = 0.0;
    for (int j = 0; j < 4; ++j) {
      // An unused slot (weight 0) contributes nothing, whatever its node.
      key[std::size_t(j)] = map.weights(v, j) == 0.0 ? -1 : map.nodes(v, j);
      sum += std::abs(map.weights(v, j));
      num_nodes_ = std::max(num_nodes_, map.nodes(v, j) + 1);
    }
    const auto [it, added] = id_of.emplace(key, int(nodes_.size()));
    if (added) {
      nodes_.push_back(key);
      weight_sum_.push_back(0.0);
    }
    group[std::size_t(v)] = it->second;
    weight_sum_[std::size_t(it->second)] = std::max(weight_sum_[std::size_t(it->second)], sum);
  }
  group_start_.assign(nodes_.size() + 1, 0);
  for (int g : group) ++group_start_[std::size_t(g) + 1];
  for (std::size_t g = 0; g < nodes_.size(); ++g) group_start_[g + 1] += group_start_[g];
  vertices_.resize(group.size());
  std::vector<int> next(group_start_.begin(), group_start_.end() - 1);
  for (int v = 0; v < map.size(); ++v) vertices_[std::size_t(next[std::size_t(group[std::size_t(v)])]++)] = v;
}

double LargestMove::of(const NodeMap& map, const Positions& q, int first_node) const {
  if (nodes_.empty()) return 0.0;
  std::vector<double> node_move(static_cast<std::size_t>(num_nodes_));
  for (int n = 0; n < num_nodes_; ++n) node_move[std::size_t(n)] = q.row(first_node + n).norm();
  std::vector<double> bound(nodes_.size());
  for (std::size_t g = 0; g < nodes_.size(); ++g) {
    double m = 0.0;
    for (int n : nodes_[g])
      if (n >= 0) m = std::max(m, node_move[std::size_t(n)]);
    bound[g] = weight_sum_[g] * m;
  }
  double largest = 0.0;  // squared, as NodeMap::max_norm keeps it
  auto visit = [&](std::size_t g) {
    for (int i = group_start_[g]; i < group_start_[g + 1]; ++i)
      largest = std::max(largest, map.squared_norm_at(vertices_[std::size_t(i)], q, first_node));
  };
  // The group that may move most first, then every group that could beat it.
  // The bound holds for exact arithmetic; the 1e-12 margin covers the rounding
  // of a vertex's sum, so a skipped vertex can never have held the maximum.
  const std::size_t top = std::size_t(std::max_element(bound.begin(), bound.end()) - bound.begin());
  visit(top);
  for (std::size_t g = 0; g < nodes_.size(); ++g)
    if (g != top && bound[g] * bound[g] * (1.0 + 1e-12) >= largest) visit(g);
  return std::sqrt(largest);
}

}  // namespace eipc
