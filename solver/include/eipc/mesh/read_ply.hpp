// Stanford PLY surface reader.
#pragma once

#include "eipc/mesh/tet_mesh.hpp"

#include <string>

namespace eipc {

/// Reads the `vertex` element (properties x, y, z of any scalar type; others
/// ignored) and the `face` element (list property `vertex_indices` or
/// `vertex_index`; polygons fan-triangulated (c0, c_j, c_{j+1})) of a PLY file:
/// ascii, binary_little_endian or binary_big_endian. Other elements are skipped.
/// Values are exact: a float property widens exactly to double (in ascii files too:
/// the text is read as the float it declares). Vertex order is the file's.
/// Throws InputError naming the file, line or byte, element and problem.
SurfaceMesh read_ply(const std::string& path);

}  // namespace eipc
