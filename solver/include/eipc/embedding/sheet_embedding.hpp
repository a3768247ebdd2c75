// Automatic coarse surfaces for embedded shells (issue 61): a flat sheet's plane covered by
// a regular grid of square cells, each split into two triangles along one diagonal, keeping
// the triangles that hold a fine vertex. The grid is shifted so that no fine vertex lies on a
// cell edge or diagonal: each is strictly inside one coarse triangle, so every kept coarse
// vertex carries weight (embed_shell refuses a massless one). The cell size is searched so the
// surface has about the requested number of vertices.
#pragma once

#include "eipc/mesh/tet_mesh.hpp"

#include <string>

namespace eipc {

/// A coarse surface for the flat sheet (x, faces) with about `target_vertices` vertices (within
/// 20%), its triangles facing as the sheet's do. Throws InputError, naming `source`, when the
/// sheet is not flat (x = S q puts every fine vertex on the coarse surface) or no grid comes
/// within 20% of the target.
SurfaceMesh sheet_embedding(const Positions& x, const Tris& faces, int target_vertices, const std::string& source);

}  // namespace eipc
