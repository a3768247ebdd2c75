// The largest move of a body's fine vertices, |J dq| over all of them, without
// mapping every vertex (docs/performance.md, "Newton's largest move"): a
// vertex's move is a weighted sum of its four nodes' moves, so it is at most
// (sum of |weights|) * (largest of those four moves). Vertices that share their
// nodes (one embedding tet) share that bound; a tet whose bound is below the
// largest move found so far is skipped whole. The result is bit for bit the
// maximum over every vertex.
#pragma once

#include "eipc/embedding/node_map.hpp"

#include <array>
#include <vector>

namespace eipc {

class LargestMove {
public:
  LargestMove() = default;
  explicit LargestMove(const NodeMap& map);

  /// max over vertices v of |sum_j weights(v, j) * q[first_node + nodes(v, j)]|,
  /// as map.max_norm(q, first_node) computes it (`map` as given to the constructor).
  double of(const NodeMap& map, const Positions& q, int first_node) const;

private:
  std::vector<int> group_start_;             ///< vertices_ of group g: [group_start_[g], group_start_[g + 1])
  std::vector<int> vertices_;                ///< grouped by their nodes
  std::vector<std::array<int, 4>> nodes_;    ///< of each group
  std::vector<double> weight_sum_;           ///< largest sum of |weights| in each group
  int num_nodes_ = 0;                        ///< 1 + the largest node index
};

}  // namespace eipc
