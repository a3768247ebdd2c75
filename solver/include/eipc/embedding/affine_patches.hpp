// Affine patches of the collision surface: the collision vertices of an
// embedded body that lie in one simulation tet move by that tet's affine map,
// x = F X + c, with F from the tet's four nodes. Two primitives inside one
// patch are then at least sigma_min(F) times their rest distance apart, and a
// straight move of the nodes moves F along a straight line too. So while F
// shortens no direction below a bound, the pairs of a patch that were far
// enough apart at rest need neither contact nor CCD tests (docs/performance.md).
#pragma once

#include "eipc/common.hpp"

#include <array>
#include <vector>

namespace eipc {

class AffinePatches {
public:
  /// Adds the patches of one body: `nodes` are the simulation tet's four
  /// nodes of each of `vertices` (global node indices), `rest_nodes` all rest
  /// node positions. A vertex whose four nodes are not distinct (a full-space
  /// body: the vertex is its own node) or span a flat tet is in no patch.
  /// Returns the patch of each vertex (-1: none).
  std::vector<int> add(const std::vector<std::array<int, 4>>& nodes, const Positions& rest_nodes);

  int size() const { return static_cast<int>(nodes_.size()); }

  /// For each patch, whether its map F keeps every direction at least
  /// `min_stretch` times its rest length, at q and all along the straight
  /// move to q_end (sigma_min(F(q)) - |F(q_end) - F(q)| >= min_stretch), and
  /// lengthens none more than `max_stretch` times at q. Conservative:
  /// Frobenius norms bound the spectral ones.
  std::vector<char> trusted(const Positions& q, const Positions& q_end, double min_stretch, double max_stretch) const;

private:
  /// F = [q1 - q0, q2 - q0, q3 - q0] * rest_inverse.
  Mat3 map_at(const Positions& q, int patch) const;

  std::vector<std::array<int, 4>> nodes_;
  std::vector<Mat3> rest_inverse_;
};

}  // namespace eipc
