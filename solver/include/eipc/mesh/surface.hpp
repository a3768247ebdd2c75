// Boundary surface of a tetrahedral mesh and its edges/vertices. All results are
// deterministic (sorted), independent of hashing or thread count.
#pragma once

#include "eipc/mesh/tet_mesh.hpp"

#include <vector>

namespace eipc {

/// Faces that belong to exactly one tet, oriented outward: for a positively oriented tet
/// (a, b, c, d) its faces are (a,c,b), (a,b,d), (a,d,c), (b,c,d), each with normal pointing
/// away from the opposite vertex. Faces shared by two (or more) tets are interior.
/// Ordered by (owning tet, local face). Assumes positively oriented tets (validate_tet_mesh).
Tris boundary_faces(const Tets& tets);

/// Unique undirected edges of the triangles, each stored (i, j) with i < j, sorted lexicographically.
Edges unique_edges(const Tris& faces);

/// Sorted list of the distinct vertex indices referenced by the triangles.
std::vector<int> surface_vertices(const Tris& faces);

/// The boundary of a tet mesh as a standalone surface: only the boundary vertices are
/// kept, in increasing original index; `original_index`, if given, receives for each surface
/// vertex its index in `mesh.vertices` (= surface_vertices(boundary_faces(mesh.tets))).
SurfaceMesh extract_surface(const TetMesh& mesh, std::vector<int>* original_index = nullptr);

}  // namespace eipc
