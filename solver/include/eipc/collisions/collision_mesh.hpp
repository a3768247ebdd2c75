// The stacked collision surface of every body in a scene. Contact works on
// these full-space collision vertices; reduced bodies map q to them (x = J q).
#pragma once

#include "eipc/common.hpp"

#include <algorithm>
#include <iterator>
#include <vector>

namespace eipc {

struct CollisionMesh {
  Positions rest;                 ///< rest positions of all collision vertices, bodies stacked
  Tris faces;                     ///< surface triangles (global vertex indices)
  Edges edges;                    ///< unique surface edges (global vertex indices, i < j)
  std::vector<int> vertex_body;   ///< body index of each vertex
  /// Affine patch of each vertex (-1: none; empty: no patches): the vertices
  /// of a patch move by one affine map (embedding/affine_patches.hpp).
  std::vector<int> vertex_patch;
  /// Convex region of each vertex, numbered with the patches (-1: none; empty:
  /// no regions): the vertices of a body whose simulation tets form a convex
  /// shape, each in its own tet (embedding/affine_patches.hpp).
  std::vector<int> vertex_region;
  /// Per body, 1 when it moves rigidly (a kinematic body): no pair of its own
  /// primitives changes its distance, so none needs a contact or a CCD test
  /// (empty: no such body).
  std::vector<char> rigid_body;
  /// Per body, half its thickness (a shell's; 0 for solids, affine and
  /// kinematic bodies; empty: all 0). Contact between two primitives acts at
  /// the sum of their bodies' halves, the pair's contact offset, from the
  /// mid-surfaces (docs/design.md, "Contact offset").
  std::vector<double> half_thickness;

  int num_vertices() const { return static_cast<int>(rest.rows()); }
  int body_of_face(int f) const { return vertex_body[faces(f, 0)]; }
  int body_of_edge(int e) const { return vertex_body[edges(e, 0)]; }
  bool is_rigid(int body) const { return std::size_t(body) < rigid_body.size() && rigid_body[std::size_t(body)]; }
  double half_thickness_of(int body) const {
    return std::size_t(body) < half_thickness.size() ? half_thickness[std::size_t(body)] : 0.0;
  }
  /// The contact offset of a pair with a vertex `a` on one side and `b` on
  /// the other (b < 0: the ground, which has no thickness).
  double contact_offset(int a, int b) const {
    if (half_thickness.empty()) return 0.0;
    return half_thickness_of(vertex_body[std::size_t(a)]) + (b < 0 ? 0.0 : half_thickness_of(vertex_body[std::size_t(b)]));
  }
  /// The largest contact offset any pair can have (a shell against itself): a
  /// search for pairs within dhat of contact looks dhat + this far.
  double max_contact_offset() const {
    double h = 0.0;
    for (double t : half_thickness) h = std::max(h, t);
    return 2.0 * h;
  }
};

/// The patch or region all of `vertices` lie in, by `piece_of`
/// (CollisionMesh::vertex_patch or vertex_region), or -1.
template <class Vertices>
int common_piece(const std::vector<int>& piece_of, const Vertices& vertices) {
  auto v = std::begin(vertices);
  if (piece_of.empty() || v == std::end(vertices)) return -1;
  const int p = piece_of[std::size_t(*v)];
  if (p < 0) return -1;
  for (++v; v != std::end(vertices); ++v)
    if (piece_of[std::size_t(*v)] != p) return -1;
  return p;
}

/// A vertex of the collision mesh closer than dhat to a triangle.
struct PointTriangleCandidate {
  int vertex;
  int face;
  bool operator==(const PointTriangleCandidate& o) const { return vertex == o.vertex && face == o.face; }
  /// The order of Candidates::point_triangle.
  bool operator<(const PointTriangleCandidate& o) const { return vertex != o.vertex ? vertex < o.vertex : face < o.face; }
};

/// Two edges of the collision mesh closer than dhat.
struct EdgeEdgeCandidate {
  int edge_a;  ///< edge_a < edge_b
  int edge_b;
  bool operator==(const EdgeEdgeCandidate& o) const { return edge_a == o.edge_a && edge_b == o.edge_b; }
  /// The order of Candidates::edge_edge.
  bool operator<(const EdgeEdgeCandidate& o) const { return edge_a != o.edge_a ? edge_a < o.edge_a : edge_b < o.edge_b; }
};

/// Candidate primitive pairs, sorted (pt by vertex then face; ee by edge_a then edge_b)
/// so every consumer sees the same order whatever the thread count.
struct Candidates {
  std::vector<PointTriangleCandidate> point_triangle;
  std::vector<EdgeEdgeCandidate> edge_edge;
  std::size_t size() const { return point_triangle.size() + edge_edge.size(); }
};

/// Candidate sets read one after the other (a cache's groups), not copied into one.
using CandidateLists = std::vector<const Candidates*>;

}  // namespace eipc
