// Affine patches of the collision surface: the collision vertices of an
// embedded body that lie in one simulation tet move by that tet's affine map,
// x = F X + c, with F from the tet's four nodes. Two primitives inside one
// patch are then at least sigma_min(F) times their rest distance apart, and a
// straight move of the nodes moves F along a straight line too. So while F
// shortens no direction below a bound, the pairs of a patch that were far
// enough apart at rest need neither contact nor CCD tests (docs/performance.md).
//
// A body whose simulation tets form a convex shape is also one convex region:
// its vertices move by one continuous, piecewise-affine map over a convex
// domain, so the segment between any two of their rest points stays in it and
// the map stretches it by an average of the tets' F. The same bound then holds
// for all of the body's pairs, less a term for primitives that straddle tets
// (docs/performance.md, "Convex regions").
//
// An embedded shell's fine vertices that follow one coarse triangle are a
// patch too: they lie in its plane and move by x = F X + c with F (3 x 2) from
// its three nodes, so its pairs are sigma_min(F) times their rest distance
// apart, as a tet's are (docs/elasticity.md, "Embedded shells").
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

  /// Adds the patches of one embedded shell: `nodes` are the coarse triangle's
  /// three nodes of each of `vertices` (global node indices), which lie in its
  /// plane at rest; `offset` is the contact offset of its pairs with each other
  /// (the shell's thickness). Three nodes that are not distinct (a full-space
  /// shell) or span a degenerate triangle give no patch. Returns the patch of
  /// each vertex (-1: none).
  std::vector<int> add_triangles(const std::vector<std::array<int, 3>>& nodes, const Positions& rest_nodes,
                                 double offset);

  /// Adds a convex region made of `tets` (global node indices, two or more,
  /// none flat) if their union is convex; numbered after the patches added
  /// so far, like one. The caller vouches that the vertices given to it lie
  /// in (or on) their own tets. Returns its number, or -1 (not convex).
  int add_region(const std::vector<std::array<int, 4>>& tets, const Positions& rest_nodes);

  /// How far beyond dhat / min_stretch, in units of the longest edge of a
  /// primitive that straddles tets, a region's pairs must be apart at rest to
  /// be left out (smaller: fewer pairs kept, a stricter trust).
  static constexpr double kStraddleReach = 1.0 / 3.0;

  /// Patches and regions.
  int size() const { return static_cast<int>(pieces_.size()); }

  /// For each patch or region, whether it stretches no pair of its rest
  /// points to less than `min_stretch` times their distance at q and all
  /// along the straight move to q_end, nor more than `max_stretch` times at q.
  /// A patch (one map F): sigma_min(F(q)) - |F(q_end) - F(q)| >= min_stretch
  /// and |F(q)| <= max_stretch. A region (maps F_T): with F_ref the mean F_T
  /// at q and R its rotation, m the least eigenvalue of sym(R^T F_T) over its
  /// tets at both ends and D the largest |F_T - F_ref|, c = kStraddleReach:
  /// m >= min_stretch and (m - D / c) max_stretch >= min_stretch
  /// (|F_ref| + D + D / c). D bounds what primitives that straddle tets lose;
  /// pairs closer at rest than dhat / min_stretch plus c times such a
  /// primitive's longest edge are kept (CandidateCache).
  /// A triangle (map F, 3 x 2): the patch's conditions, with |F(q)| spectral
  /// and max_stretch (1 - offset_loss o), o its pairs' contact offset: an
  /// offset narrows the gap a pair keeps (ContactQueries::trusted_patches).
  /// Conservative: Frobenius norms bound the spectral ones where used.
  std::vector<char> trusted(const Positions& q, const Positions& q_end, double min_stretch, double max_stretch,
                            double offset_loss = 0.0) const;

private:
  /// One tet, the tets of a region, or one shell triangle (no tets).
  struct Piece {
    std::vector<std::array<int, 4>> tets;
    std::vector<Mat3> rest_inverse;  ///< per tet: F = [q1 - q0, q2 - q0, q3 - q0] * rest_inverse
    std::array<int, 3> triangle{};   ///< a shell triangle's nodes
    /// F = [q1 - q0, q2 - q0] * this, from an orthonormal frame of its rest plane.
    Eigen::Matrix2d triangle_rest_inverse = Eigen::Matrix2d::Zero();
    double offset = 0.0;  ///< the contact offset of its pairs with each other
  };
  Mat3 map_at(const Positions& q, const Piece& piece, std::size_t tet) const;
  Eigen::Matrix<double, 3, 2> triangle_map_at(const Positions& q, const Piece& piece) const;
  bool patch_trusted(const Positions& q, const Positions& q_end, const Piece& p, double min_stretch,
                     double max_stretch) const;
  bool triangle_trusted(const Positions& q, const Positions& q_end, const Piece& p, double min_stretch,
                        double max_stretch) const;
  bool region_trusted(const Positions& q, const Positions& q_end, const Piece& p, double min_stretch,
                      double max_stretch) const;

  std::vector<Piece> pieces_;
};

}  // namespace eipc
