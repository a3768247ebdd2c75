// Contact Hessian blocks pulled back from collision vertices to simulation
// nodes, one contact at a time: J_c^T H_c J_c, with J_c the rows of x = J q for
// the contact's vertices restricted to the nodes they depend on. An embedded
// contact's vertices usually share most of their nodes, so its block is small;
// for a full-space body (J = I) it is the contact block itself.
#pragma once

#include "eipc/embedding/collision_map.hpp"

#include <array>
#include <vector>

namespace eipc {

class ContactPullback {
public:
  explicit ContactPullback(const CollisionMap& map);

  /// Calls fn(row_node, col_node, block) for every node block of J_c^T local J_c
  /// that some vertex pair touches, for a contact on collision vertices
  /// vertices[0 .. count) (local is 3 count square).
  template <class Fn>
  void for_each_block(const std::array<int, 4>& vertices, int count, const Mat<12>& local, Fn&& fn) const;

  /// Appends scale * J_c^T local J_c as triplets on the 3 Nq node DOFs.
  void append(const std::array<int, 4>& vertices, int count, const Mat<12>& local, double scale,
              std::vector<Eigen::Triplet<double>>& out) const;

private:
  struct NodeWeight {
    int node = 0;
    double weight = 0.0;
  };
  /// The distinct nodes of a contact and each vertex's weight on them (0 where it has none).
  struct ContactNodes {
    std::array<int, 16> node;
    double weight[4][16];
    int count = 0;
  };
  void gather(const std::array<int, 4>& vertices, int count, ContactNodes& out) const;

  std::vector<std::array<NodeWeight, 4>> weights_;  ///< per collision vertex, by increasing node
  std::vector<int> count_;                          ///< used entries of weights_
};

template <class Fn>
void ContactPullback::for_each_block(const std::array<int, 4>& vertices, int count, const Mat<12>& local,
                                     Fn&& fn) const {
  ContactNodes n;
  gather(vertices, count, n);
  // Block (u, s) = sum_ij w_iu w_js H_ij = sum_i w_iu B_s[i], with the column
  // block B_s = sum_j w_js H_(:, j) formed once per node s (not per node pair).
  for (int s = 0; s < n.count; ++s) {
    Eigen::Matrix<double, 12, 3> column = Eigen::Matrix<double, 12, 3>::Zero();
    for (int j = 0; j < count; ++j)
      if (n.weight[j][s] != 0.0) column.topRows(3 * count) += n.weight[j][s] * local.block(0, 3 * j, 3 * count, 3);
    for (int u = 0; u < n.count; ++u) {
      Mat3 block = Mat3::Zero();
      bool any = false;
      for (int i = 0; i < count; ++i)
        if (n.weight[i][u] != 0.0) {
          block += n.weight[i][u] * column.middleRows<3>(3 * i);
          any = true;
        }
      if (any) fn(n.node[u], n.node[s], block);
    }
  }
}

}  // namespace eipc
