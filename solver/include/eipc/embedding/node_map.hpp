// The embedding map x = J q of one body, stored as weights: each full-resolution
// vertex follows up to four simulation nodes (the corners of the embedding tet it
// lies in; a full-space body maps each vertex to itself). The stacked map of every
// body's collision surface is CollisionMap; the pull-back of contact Hessians
// J^T H J is ContactPullback (docs/embedding.md).
#pragma once

#include "eipc/common.hpp"

namespace eipc {

/// Barycentric map from simulation nodes to full-resolution vertices: vertex v
/// sits at sum_j weights(v, j) * q[nodes(v, j)]. Unused slots have weight 0.
struct NodeMap {
  Eigen::Matrix<int, Eigen::Dynamic, 4, Eigen::RowMajor> nodes;
  Eigen::Matrix<double, Eigen::Dynamic, 4, Eigen::RowMajor> weights;

  static NodeMap identity(int n);
  int size() const { return static_cast<int>(nodes.rows()); }
  Positions apply(const Positions& q) const;
  /// Largest |x_v| over the vertices, x = the map applied to the nodes of q
  /// from row first_node on (no copy of either).
  double max_norm(const Positions& q, int first_node) const;
  /// |x_v|^2 for one vertex v, as max_norm computes it.
  double squared_norm_at(int v, const Positions& q, int first_node) const;
};

}  // namespace eipc
