#include "eipc/embedding/affine_patches.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <map>

namespace eipc {

namespace {

Mat3 edge_matrix(const Positions& q, const std::array<int, 4>& n) {
  Mat3 D;
  for (int k = 0; k < 3; ++k) D.col(k) = (q.row(n[std::size_t(k) + 1]) - q.row(n[0])).transpose();
  return D;
}

}  // namespace

std::vector<int> AffinePatches::add(const std::vector<std::array<int, 4>>& nodes, const Positions& rest_nodes) {
  std::map<std::array<int, 4>, int> patch_of;  // sorted nodes -> patch
  std::vector<int> out(nodes.size(), -1);
  for (std::size_t v = 0; v < nodes.size(); ++v) {
    std::array<int, 4> key = nodes[v];
    std::sort(key.begin(), key.end());
    if (std::adjacent_find(key.begin(), key.end()) != key.end()) continue;  // not four distinct nodes
    const auto found = patch_of.find(key);
    if (found != patch_of.end()) {
      out[v] = found->second;
      continue;
    }
    const Mat3 D = edge_matrix(rest_nodes, key);
    // A flat or tiny tet: its map is ill-determined, leave its vertices out.
    if (!(std::abs(D.determinant()) > 1e-12 * std::pow(D.norm(), 3))) {
      patch_of.emplace(key, -1);
      continue;
    }
    const int patch = size();
    patch_of.emplace(key, patch);
    nodes_.push_back(key);
    rest_inverse_.push_back(D.inverse());
    out[v] = patch;
  }
  return out;
}

Mat3 AffinePatches::map_at(const Positions& q, int patch) const {
  return edge_matrix(q, nodes_[std::size_t(patch)]) * rest_inverse_[std::size_t(patch)];
}

std::vector<char> AffinePatches::trusted(const Positions& q, const Positions& q_end, double min_stretch,
                                         double max_stretch) const {
  std::vector<char> out(nodes_.size(), 0);
  for (int p = 0; p < size(); ++p) {
    const Mat3 F = map_at(q, p);
    const double moved = &q_end == &q ? 0.0 : (map_at(q_end, p) - F).norm();
    // sigma_min(F)^2 = smallest eigenvalue of F^T F; the closed form errs by
    // ~1e-15 of the largest, hence the allowance.
    Eigen::SelfAdjointEigenSolver<Mat3> eig;
    eig.computeDirect(F.transpose() * F, Eigen::EigenvaluesOnly);
    const double largest = eig.eigenvalues()[2];
    const double smallest = std::max(0.0, eig.eigenvalues()[0] - 1e-12 * largest);
    out[std::size_t(p)] = std::sqrt(smallest) - moved >= min_stretch && F.norm() <= max_stretch;
  }
  return out;
}

}  // namespace eipc
