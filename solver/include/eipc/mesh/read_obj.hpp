// Wavefront OBJ surface reader.
#pragma once

#include "eipc/mesh/tet_mesh.hpp"

#include <string>

namespace eipc {

/// Reads the vertices ("v x y z [w]") and faces ("f" with "i", "i/t", "i//n" or "i/t/n";
/// negative indices count back from the last vertex read so far) of an OBJ file.
/// Polygons with k > 3 corners are fan-triangulated: (c0, c_j, c_{j+1}), j = 1..k-2.
/// Other statements (vt, vn, g, o, s, usemtl, l, ...) are ignored.
/// Throws InputError naming the file and line.
SurfaceMesh read_obj(const std::string& path);

}  // namespace eipc
