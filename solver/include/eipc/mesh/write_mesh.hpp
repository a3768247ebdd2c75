// Mesh writers. Files are written to "<path>.tmp.<pid>" and renamed into place when complete.
#pragma once

#include "eipc/mesh/tet_mesh.hpp"

#include <string>

namespace eipc {

/// Gmsh ASCII 2.2: nodes tagged 1..N, tets as element type 4 (physical 1, elementary 1).
/// Coordinates are written with 17 significant digits so read_msh restores them exactly.
void write_msh(const std::string& path, const TetMesh& mesh);

/// Wavefront OBJ ("v x y z", "f a b c", 1-based), 17 significant digits.
void write_obj(const std::string& path, const SurfaceMesh& mesh);

}  // namespace eipc
