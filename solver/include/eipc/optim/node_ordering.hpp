// Fill-reducing ordering on the 3x3 node blocks of a Newton matrix. Every
// unknown is one coordinate of a node and the Hessian couples nodes, not single
// coordinates, so approximate minimum degree on the node graph (9x fewer
// entries) gives the same kind of ordering at a fraction of the analysis cost,
// and keeps each node's three coordinates adjacent (denser factor columns).
#pragma once

#include <Eigen/OrderingMethods>
#include <Eigen/SparseCore>

#include <algorithm>
#include <vector>

namespace eipc {

/// The node graph of a matrix whose rows and columns are x y z per node: entry
/// (u, s) when any stored coordinate entry couples nodes u and s. Compressed,
/// rows ascending in each column, values 1. Built column by column with a mark
/// per node (setFromTriplets' sort and duplicate sums took most of an analysis).
template <class MatrixType>
Eigen::SparseMatrix<double, Eigen::ColMajor, int> node_graph(const MatrixType& a) {
  const int nodes = static_cast<int>(a.cols() / 3);
  std::vector<int> outer(std::size_t(nodes) + 1, 0), inner, mark(std::size_t(nodes), -1);
  inner.reserve(static_cast<std::size_t>(a.nonZeros() / 3));
  for (int s = 0; s < nodes; ++s) {
    const std::size_t begin = inner.size();
    for (int b = 0; b < 3; ++b)
      for (typename MatrixType::InnerIterator it(a, 3 * s + b); it; ++it) {
        const int u = static_cast<int>(it.index() / 3);
        if (mark[std::size_t(u)] != s) {
          mark[std::size_t(u)] = s;
          inner.push_back(u);
        }
      }
    std::sort(inner.begin() + std::ptrdiff_t(begin), inner.end());
    outer[std::size_t(s) + 1] = static_cast<int>(inner.size());
  }
  Eigen::SparseMatrix<double, Eigen::ColMajor, int> graph(nodes, nodes);
  graph.resizeNonZeros(static_cast<Eigen::Index>(inner.size()));
  std::copy(outer.begin(), outer.end(), graph.outerIndexPtr());
  std::copy(inner.begin(), inner.end(), graph.innerIndexPtr());
  std::fill_n(graph.valuePtr(), inner.size(), 1.0);
  return graph;
}

/// An Eigen ordering functor (e.g. for SimplicialLDLT's third template argument).
/// Falls back to coordinate-level AMD when the size is not a multiple of 3.
struct NodeAmdOrdering {
  using PermutationType = Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int>;

  template <class MatrixType>
  void operator()(const MatrixType& a, PermutationType& perm) const {
    const Eigen::Index n = a.rows();
    if (n % 3 != 0) {
      Eigen::AMDOrdering<int>()(a, perm);
      return;
    }
    PermutationType node_perm;
    Eigen::AMDOrdering<int>()(node_graph(a), node_perm);
    perm.resize(n);
    for (Eigen::Index k = 0; k < n / 3; ++k)
      for (int d = 0; d < 3; ++d) perm.indices()[3 * k + d] = 3 * node_perm.indices()[k] + d;
  }
};

}  // namespace eipc
