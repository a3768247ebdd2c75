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

/// A path's extension, lower case, with the dot ("" if none): what picks the reader.
std::string mesh_file_extension(const std::string& path);

/// The extensions (as mesh_file_extension gives them) read_tet_mesh reads.
bool is_tet_mesh_extension(const std::string& extension);

/// The extensions read_surface_mesh reads as surfaces only.
bool is_surface_mesh_extension(const std::string& extension);

}  // namespace eipc
