// Active contacts (d < dhat) of a configuration: point-triangle and edge-edge
// pairs of the collision mesh plus point-ground (z = height) contacts.
#pragma once

#include "eipc/collisions/collision_mesh.hpp"
#include "eipc/distance/distance_type.hpp"

#include <array>
#include <optional>
#include <vector>

namespace eipc {

enum class ContactKind { point_triangle, edge_edge, point_ground };

/// One active contact. Vertices are global collision-vertex indices:
///   point_triangle: (p, t0, t1, t2);  edge_edge: (ea0, ea1, eb0, eb1);  point_ground: (v, -1, -1, -1).
/// "Side A" is the first primitive (the point, or edge a); "side B" is the other one (or the ground).
struct Contact {
  ContactKind kind = ContactKind::point_triangle;
  std::array<int, 4> vertices{-1, -1, -1, -1};
  PointTriangleDistanceType pt_type = PointTriangleDistanceType::P_T;  ///< point_triangle only
  EdgeEdgeDistanceType ee_type = EdgeEdgeDistanceType::EA_EB;          ///< edge_edge only
  double eps_x = 0.0;  ///< edge_edge only: mollifier threshold from the rest positions
  /// The pair's contact offset (CollisionMesh::contact_offset): its barrier
  /// acts on the distance less this, its gap.
  double offset = 0.0;

  int num_vertices() const { return kind == ContactKind::point_ground ? 1 : 4; }
  int num_side_a() const { return kind == ContactKind::edge_edge ? 2 : 1; }
};

/// Contacts in a fixed order: point-triangle (candidate order), edge-edge (candidate order),
/// then ground contacts by vertex index.
struct ContactSet {
  std::vector<Contact> contacts;
  double dhat = 0.0;
  std::optional<double> ground_height;

  std::size_t size() const { return contacts.size(); }
  bool empty() const { return contacts.empty(); }
};

/// Keep the candidates whose gap d - offset < dhat (pairs that share a vertex are skipped) and
/// the vertices with z - ground_height - offset < dhat. x holds the current positions of all
/// collision vertices.
ContactSet build_contact_set(const CollisionMesh& mesh, const Positions& x, const Candidates& candidates,
                             double dhat, std::optional<double> ground_height = std::nullopt);

/// The candidates closer than `distance` at x (pairs sharing a vertex
/// skipped; distances, not gaps), in their order: build_contact_set(mesh, x',
/// result, dhat) equals build_contact_set(mesh, x', candidates, dhat) wherever
/// no vertex is more than (distance - dhat - mesh.max_contact_offset()) / 2
/// from x (up to a common translation).
Candidates candidates_within(const CollisionMesh& mesh, const Positions& x, const Candidates& candidates,
                             double distance);

/// candidates_within from remembered gaps. `gaps` holds, per candidate
/// (point-triangle ones first, then edge-edge, in order), a lower bound of
/// its distance at the earlier positions x - moved (-infinity where none is
/// known yet); `moved` is each vertex's displacement since then. No distance
/// between two primitives changed by more than the largest relative move of a
/// vertex of one and a vertex of the other (their points are convex
/// combinations of their vertices), which is bounded by the primitives' mean
/// moves and spreads; a pair whose gap less that bound is still at least
/// `distance` is left out without a distance computation. On return `gaps`
/// holds lower bounds at x: the distance (or the primitives' box gap) where it
/// was computed, else the reduced gap; infinity for pairs sharing a vertex.
/// The pairs kept are those of candidates_within(mesh, x, candidates,
/// distance), in order. `primitives`, when given, holds every face and edge
/// of the pairs (as index ranges [first, last) of faces and of edges: a
/// body's pairs with itself): the move balls are then made for those only.
struct PrimitiveRanges {
  int first_face = 0, last_face = 0, first_edge = 0, last_edge = 0;
};
Candidates candidates_within(const CollisionMesh& mesh, const Positions& x, const Candidates& candidates,
                             double distance, std::vector<float>& gaps, const Positions& moved,
                             const PrimitiveRanges* primitives = nullptr);

/// Same pairs with the same distance types, in the same order (the same
/// barrier terms, so the same Hessian structure).
bool same_pairs(const ContactSet& a, const ContactSet& b);

/// Unsquared distance of one contact at x (for ground: z - height).
double contact_distance(const Contact& c, const Positions& x, std::optional<double> ground_height);
/// The smallest gap (contact_distance less the contact's offset) of the set's
/// contacts at x (infinity if there are none).
double closest_contact_gap(const ContactSet& contacts, const Positions& x);

}  // namespace eipc
