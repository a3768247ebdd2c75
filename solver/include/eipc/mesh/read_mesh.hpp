// Mesh reading dispatched on the file extension.
#pragma once

#include "eipc/mesh/tet_mesh.hpp"

#include <string>

namespace eipc {

/// Tetrahedral mesh from .msh (Gmsh 2.x/4.1), .node/.ele (TetGen) or .vtk (legacy ASCII).
/// Parses only (structure, indices, finite coordinates); call validate_tet_mesh for
/// inverted/degenerate tets. Unknown or surface-only extensions throw InputError.
TetMesh read_tet_mesh(const std::string& path);

/// Triangle surface from .obj, .stl, .ply or .vtp (the whole file as one surface), or the
/// boundary of a tetrahedral mesh file (see extract_surface: only boundary vertices are
/// kept, in increasing original index).
SurfaceMesh read_surface_mesh(const std::string& path);

/// The extensions (lower case, with the dot) read_surface_mesh reads as surfaces only.
bool is_surface_mesh_extension(const std::string& extension);

}  // namespace eipc
