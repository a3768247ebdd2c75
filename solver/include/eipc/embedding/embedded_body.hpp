// Embedded bodies (paper, "Embedding Implementation"): elasticity on a coarse
// tet mesh whose nodes are the DOFs; every full-resolution vertex follows the
// coarse tet it lies in through fixed barycentric weights (x = J q).
#pragma once

#include "eipc/embedding/node_map.hpp"
#include "eipc/mesh/tet_mesh.hpp"

#include <vector>

namespace eipc {

/// How the fine vertices were bound to the embedding.
struct EmbeddingReport {
  int vertices = 0;            ///< fine vertices bound
  int extrapolated = 0;        ///< outside every embedding tet, bound to the nearest one
  double max_outside = 0.0;    ///< largest distance of an extrapolated vertex to its tet (m)
  int dropped_nodes = 0;       ///< embedding nodes that carried no fine volume
  int dropped_tets = 0;        ///< embedding tets that contained no fine volume
  int split_tets = 0;          ///< tets added as copies for disconnected parts (before dropping)
};

/// How a body is embedded (the scene's `embeddings` entry).
struct EmbeddingOptions {
  /// Copy each embedding tet once per connected part of the body inside it
  /// (disconnected_parts.hpp), so parts that only lie close are not glued.
  bool split_disconnected_parts = false;
};

/// Largest allowed outside distance, relative to the body's bounding-box diagonal.
constexpr double kMaxExtrapolation = 0.05;

/// A body's degrees of freedom: simulation nodes, the elastic tets on them, and
/// how its full-resolution vertices follow them (for a full-space body the nodes
/// are the vertices and the elements its tets).
struct SimulationNodes {
  Positions node_rest;           ///< rest positions of the DOF nodes
  Tets elements;                 ///< elastic tets on the nodes
  VecX element_volumes;          ///< fine-mesh volume represented by each element
  NodeMap fine_map;              ///< fine vertex -> nodes
  Eigen::VectorXi fine_element;  ///< embedded bodies: the element holding each fine vertex (empty if full)
  /// Contact-patch nodes (contact_patch.hpp): the fine vertex of each of the last
  /// patch_vertices.size() nodes, which are in no element.
  std::vector<int> patch_vertices;

  int num_nodes() const { return static_cast<int>(node_rest.rows()); }
};

/// The simulation nodes of a body's full-resolution tet mesh (fine_rest,
/// fine_tets) embedded in an embedding mesh (same frame as the rest vertices). Each coarse tet gets the fine volume of
/// the fine tets inside it (each fine tet counted in four quarters; a quarter in a
/// tet with a massless node goes to its corner vertex's tet), so mass and
/// volume totals are exact. With options.split_disconnected_parts the embedding
/// tets are first copied per connected part of the body inside them
/// (disconnected_parts.hpp). Throws InputError (naming `source`) when a vertex
/// is farther outside than kMaxExtrapolation, or the embedding is unusable;
/// `body` names the body in messages.
SimulationNodes embed_mesh(const Positions& fine_rest, const Tets& fine_tets, const TetMesh& embedding,
                           const std::string& body, const std::string& source, EmbeddingReport* report = nullptr,
                           const EmbeddingOptions& options = {});

/// One regular tetrahedron enclosing the body's vertices: the affine embedding.
TetMesh enclosing_tet(const Positions& x);

}  // namespace eipc
