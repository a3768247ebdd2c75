#include "eipc/embedding/contact_pullback.hpp"

namespace eipc {

ContactPullback::ContactPullback(const CollisionMap& map)
    : weights_(map.mesh().num_vertices()), count_(map.mesh().num_vertices(), 0) {
  // J repeats one weight per coordinate: read the x rows (3 v) against x columns (3 node).
  const Eigen::SparseMatrix<double>& J = map.jacobian();
  for (int col = 0; col < J.outerSize(); col += 3)
    for (Eigen::SparseMatrix<double>::InnerIterator it(J, col); it; ++it) {
      if (it.row() % 3 != 0) continue;
      const int v = static_cast<int>(it.row() / 3);
      weights_[v][count_[v]++] = {col / 3, it.value()};
    }
}

void ContactPullback::gather(const std::array<int, 4>& vertices, int count, ContactNodes& out) const {
  out.count = 0;
  for (int i = 0; i < count; ++i) {
    for (int u = 0; u < 16; ++u) out.weight[i][u] = 0.0;
    const int v = vertices[i];
    for (int k = 0; k < count_[v]; ++k) {
      const NodeWeight& nw = weights_[v][k];
      int u = 0;
      while (u < out.count && out.node[u] != nw.node) ++u;
      if (u == out.count) out.node[out.count++] = nw.node;
      out.weight[i][u] = nw.weight;
    }
  }
}

void ContactPullback::append(const std::array<int, 4>& vertices, int count, const Mat<12>& local, double scale,
                             std::vector<Eigen::Triplet<double>>& out) const {
  for_each_block(vertices, count, local, [&](int row_node, int col_node, const Mat3& block) {
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) out.emplace_back(3 * row_node + a, 3 * col_node + b, scale * block(a, b));
  });
}

}  // namespace eipc
