// Wavefront OBJ surface reader (the only OBJ parser: meshes of kinematic bodies
// and frames of datasets both use it).
#pragma once

#include "eipc/mesh/surface_file.hpp"
#include "eipc/mesh/tet_mesh.hpp"

#include <string>
#include <vector>

namespace eipc {

/// Reads the vertices ("v x y z [w]") and faces ("f" with "i", "i/t", "i//n" or "i/t/n";
/// negative indices count back from the last vertex read so far) of an OBJ file.
/// Polygons with k > 3 corners are fan-triangulated: (c0, c_j, c_{j+1}), j = 1..k-2.
/// Other statements (vt, vn, s, usemtl, l, ...) are ignored; so are o and g here.
/// Throws InputError naming the file and line.
SurfaceMesh read_obj(const std::string& path);

/// The same file split into its objects: the `o` objects if it has any, else the
/// `g` groups; faces before the first one form an unnamed surface. Each surface
/// holds the vertices its faces use, in file order, with their file indices
/// (0-based) and the file indices of its triangles. Surfaces without faces are dropped.
std::vector<NamedSurface> read_obj_surfaces(const std::string& path);

}  // namespace eipc
