// Contact broad phase: primitive pairs whose swept, inflated bounding boxes overlap.
#pragma once

#include "eipc/geometry/aabb_tree.hpp"
#include "eipc/collisions/collision_mesh.hpp"

#include <array>
#include <deque>
#include <utility>
#include <vector>

namespace eipc {

/// Box of a primitive over its straight motion x0 -> x1: the box of its vertices
/// at both ends (it contains the whole swept volume), grown by `inflation`.
Aabb swept_vertex_box(const Positions& x0, const Positions& x1, int v, double inflation);
Aabb swept_face_box(const CollisionMesh& mesh, const Positions& x0, const Positions& x1, int f, double inflation);
Aabb swept_edge_box(const CollisionMesh& mesh, const Positions& x0, const Positions& x1, int e, double inflation);

/// Every point-triangle (vertex, face) and edge-edge (edge_a < edge_b) pair whose
/// swept boxes come within `inflation` of each other (each box is grown by
/// inflation / 2, so a pair closer than `inflation` at any time is always found), except pairs sharing a vertex (a vertex of its own face,
/// edges with a common endpoint). Same-body pairs are included (self-contact).
/// Barrier candidates: x0 == x1, inflation = dhat. CCD candidates: x0 -> x1,
/// inflation 0 (or a small margin). Output sorted as documented on Candidates;
/// computed in parallel (TBB) with a result independent of the thread count.
Candidates find_candidates(const CollisionMesh& mesh, const Positions& x0, const Positions& x1, double inflation);

/// Primitives of a part of a collision mesh (global indices, ascending).
struct MeshPart {
  std::vector<int> vertices, faces, edges;
};

/// Box trees over each body's faces, edges and vertices, kept from one broad
/// phase to the next: a later call refits them to its boxes (linear time)
/// instead of building them again (n log n). The candidates found do not depend
/// on the trees, only the time to find them. For one collision mesh; not
/// thread-safe.
class BroadPhaseTrees {
public:
  struct Fitted {
    const AabbTree* faces;
    const AabbTree* edges;
    const AabbTree* vertices;
  };
  /// `body`'s face, edge and vertex trees over these boxes: built at the first
  /// call for the body (or when its counts changed), refit afterwards.
  Fitted fit(int body, std::vector<Aabb> faces, std::vector<Aabb> edges, std::vector<Aabb> vertices);
  /// The primitives of each body (index = body; CollisionMesh::vertex_body),
  /// made at the first call (and again for a mesh with another vertex count).
  const std::vector<MeshPart>& bodies(const CollisionMesh& mesh);

private:
  std::vector<MeshPart> bodies_;
  int bodies_of_vertices_ = -1;  ///< the vertex count of the mesh bodies_ was made for
  std::deque<AabbTree> faces_, edges_, vertices_;  ///< per body (a deque: growing keeps the trees in place)
};

/// Pairs a broad phase within a body may leave out: those whose vertices all
/// lie in one trusted affine patch or convex region (CollisionMesh::vertex_patch,
/// vertex_region), except the listed pairs at risk (close at rest).
class PatchExclusion {
public:
  /// Leaves nothing out.
  PatchExclusion() = default;
  /// `at_risk`: the pairs to keep even in a trusted patch.
  PatchExclusion(const CollisionMesh& mesh, const Candidates& at_risk);

  std::vector<char> trusted;  ///< per patch or region
  bool excludes(const PointTriangleCandidate& c) const;
  bool excludes(const EdgeEdgeCandidate& c) const;

private:
  /// The patch and the region all vertices of a primitive lie in (common_piece; -1: none).
  struct Pieces {
    int patch = -1, region = -1;
  };
  /// Do a's and b's vertices all lie in one trusted patch or region?
  bool in_trusted_piece(const Pieces& a, const Pieces& b) const;
  /// Each vertex's, face's and edge's pieces (empty: leaves nothing out).
  std::vector<Pieces> vertex_pieces_, face_pieces_, edge_pieces_;
  /// The pairs at risk by first primitive: faces of vertex v at
  /// face_of_[vertex_start_[v] .. vertex_start_[v + 1]), likewise edges.
  std::vector<int> vertex_start_, face_of_, edge_start_, edge_of_;
};

/// The pairs of find_candidates whose primitives both belong to `body`
/// (CollisionMesh::vertex_body; an empty vertex_body puts everything in body 0).
/// `trees`: kept trees to refit (none: built for this call).
/// `exclusion`: pairs to leave out (none: all).
Candidates find_candidates_within_body(const CollisionMesh& mesh, const Positions& x0, const Positions& x1,
                                       double inflation, int body, BroadPhaseTrees* trees = nullptr,
                                       const PatchExclusion* exclusion = nullptr);
/// Every point-triangle and edge-edge pair (as find_candidates) whose boxes
/// at x overlap once each vertex's, face's and edge's box is grown by its own
/// entry of vertex_grow, face_grow, edge_grow (all mesh primitives).
Candidates find_candidates_grown(const CollisionMesh& mesh, const Positions& x, const std::vector<double>& vertex_grow,
                                 const std::vector<double>& face_grow, const std::vector<double>& edge_grow);

/// Which pairs of bodies a search between bodies covers: every pair, the pairs
/// of two deforming bodies, or the pairs with a rigid one
/// (CollisionMesh::rigid_body); the last two together are the first.
enum class BodyPairs { all, deforming, with_rigid };

/// The pairs of find_candidates whose primitives belong to different bodies
/// (of the body pairs `which` says).
Candidates find_candidates_between_bodies(const CollisionMesh& mesh, const Positions& x0, const Positions& x1,
                                          double inflation, BroadPhaseTrees* trees = nullptr,
                                          BodyPairs which = BodyPairs::all);

/// The end x1 of the motion x0 -> x1 seen from a frame that moves with the mean
/// displacement: x1 - mean(x1 - x0). Distances at every time of the motion, and
/// so contacts and collision times, are the same in that frame, but swept boxes
/// shrink when everything moves together (a gripper lifting what it holds
/// sweeps 3 mm a step; its parts move only ~0.1 mm relative to each other).
Positions follow_mean_translation(const Positions& x0, const Positions& x1);

/// x1 with each body's own mean displacement removed from its vertices: the
/// frame in which a body's pairs with itself are swept (a finger carried 2 mm a
/// step sweeps its own close triangle pairs only by how much it deforms).
Positions follow_body_translations(const CollisionMesh& mesh, const Positions& x0, const Positions& x1);

/// Each body's mean displacement from x0 to x1, a row per body (its summed
/// displacement over its vertex count): what follow_body_translations removes.
/// Needs mesh.vertex_body.
Positions body_mean_translations(const CollisionMesh& mesh, const Positions& x0, const Positions& x1);

}  // namespace eipc
