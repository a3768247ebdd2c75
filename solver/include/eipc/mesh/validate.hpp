// Mesh validation. Every failure throws InputError "<source>: <problem>" naming the
// offending tet, triangle, edge or vertex (first one found, plus how many in total).
#pragma once

#include "eipc/mesh/tet_mesh.hpp"

#include <string>
#include <vector>

namespace eipc {

/// Tets whose volume is at most this fraction of L^3 (L = largest bounding-box side) are
/// degenerate. 1e-12 rejects slivers flattened to round-off while accepting any tet a
/// mesher produces for a body with fewer than ~1e4 cells along its largest side.
inline constexpr double kDegenerateTetRelativeVolume = 1e-12;

/// Checks a tet mesh for simulation: at least one tet, finite coordinates, indices in
/// range, four distinct vertices per tet, no face shared by more than two tets, and every
/// tet positively oriented with volume > kDegenerateTetRelativeVolume * L^3 (inverted tets,
/// V < 0, and degenerate ones are reported separately). Vertices used by no tet are
/// allowed (files may hold extra nodes) and not reported here; list them with
/// unused_vertices and drop them with remove_unused_vertices when they would carry no mass.
void validate_tet_mesh(const TetMesh& mesh, const std::string& source);

/// Checks that triangles form a closed, manifold, consistently oriented surface: indices in
/// [0, num_vertices), no repeated index in a triangle, every edge shared by exactly two
/// triangles (one: open boundary; more: non-manifold) traversing it in opposite directions.
/// Not checked: orientation sign (see enclosed_volume), self-intersection, non-manifold vertices.
/// With SurfaceOrientation::either, neighbours may also traverse an edge the same way (a
/// surface to be tetrahedralized, which is oriented then).
enum class SurfaceOrientation { consistent, either };
void validate_closed_surface(const Tris& faces, int num_vertices, const std::string& source,
                             SurfaceOrientation orientation = SurfaceOrientation::consistent);

/// Vertices referenced by no tet, increasing.
std::vector<int> unused_vertices(const TetMesh& mesh);

/// The mesh without unused vertices (kept vertices in increasing order); `old_index`, if
/// given, receives for each new vertex its index in the input.
TetMesh remove_unused_vertices(const TetMesh& mesh, std::vector<int>* old_index = nullptr);

}  // namespace eipc
