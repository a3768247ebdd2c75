// Connected components of a triangle surface (triangles sharing a vertex index
// are connected).
#pragma once

#include "eipc/mesh/tet_mesh.hpp"

#include <vector>

namespace eipc {

/// One component: its vertices (increasing) and its triangles (increasing),
/// as indices into the surface's vertices and faces.
struct SurfaceComponent {
  std::vector<int> vertices;
  std::vector<int> triangles;
};

/// The components of `faces` over `num_vertices` vertices, ordered by their first
/// (smallest) vertex. Vertices no triangle uses belong to none.
std::vector<SurfaceComponent> surface_components(const Tris& faces, int num_vertices);

}  // namespace eipc
