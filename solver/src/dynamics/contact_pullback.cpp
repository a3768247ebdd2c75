#include "eipc/dynamics/contact_pullback.hpp"

namespace eipc {

ContactPullback::ContactPullback(const DofSystem& sys)
    : weights_(sys.collision_mesh().num_vertices()), count_(sys.collision_mesh().num_vertices(), 0) {
  // J repeats one weight per coordinate: read the x rows (3 v) against x columns (3 node).
  const SparseMatrix& J = sys.collision_jacobian();
  for (int col = 0; col < J.outerSize(); col += 3)
    for (SparseMatrix::InnerIterator it(J, col); it; ++it) {
      if (it.row() % 3 != 0) continue;
      const int v = static_cast<int>(it.row() / 3);
      weights_[v][count_[v]++] = {col / 3, it.value()};
    }
}

void ContactPullback::append(const std::array<int, 4>& vertices, int count, const Mat<12>& local, double scale,
                             Triplets& out) const {
  // Distinct nodes of the contact and each vertex's weight on them.
  std::array<int, 16> nodes;
  double w[4][16] = {};
  int m = 0;
  for (int i = 0; i < count; ++i) {
    const int v = vertices[i];
    for (int k = 0; k < count_[v]; ++k) {
      const NodeWeight& nw = weights_[v][k];
      int u = 0;
      while (u < m && nodes[u] != nw.node) ++u;
      if (u == m) nodes[m++] = nw.node;
      w[i][u] = nw.weight;
    }
  }
  for (int u = 0; u < m; ++u)
    for (int s = 0; s < m; ++s) {
      Mat3 block = Mat3::Zero();
      bool any = false;
      for (int i = 0; i < count; ++i) {
        if (w[i][u] == 0.0) continue;
        for (int j = 0; j < count; ++j) {
          if (w[j][s] == 0.0) continue;
          const Mat3 h = local.block<3, 3>(3 * i, 3 * j);
          block = any ? Mat3(block + (w[i][u] * w[j][s]) * h) : Mat3((w[i][u] * w[j][s]) * h);
          any = true;
        }
      }
      if (!any) continue;
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) out.emplace_back(3 * nodes[u] + a, 3 * nodes[s] + b, scale * block(a, b));
    }
}

}  // namespace eipc
