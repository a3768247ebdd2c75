// Gmsh .msh reader (ASCII format 2.x and 4.1).
#pragma once

#include "eipc/mesh/tet_mesh.hpp"

#include <string>

namespace eipc {

/// Reads the 4-node tetrahedra (element type 4) of an ASCII Gmsh file, version 2.x or 4.1.
/// Lower-dimensional elements (points, lines, triangles, quads) are ignored; other volume
/// elements (hexes, prisms, 10-node tets, ...) are rejected. Node tags may be arbitrary
/// (non-contiguous); vertices are stored in the file's node order and tets remapped.
/// Throws InputError "<path>:<line>: <problem>" on any malformed input.
TetMesh read_msh(const std::string& path);

}  // namespace eipc
