// One frame file of a dataset, any format: its surfaces, their file indices, and
// what the reader had to do to them (docs/mesh.md, "Frame files").
#pragma once

#include "eipc/mesh/tet_mesh.hpp"

#include <string>
#include <vector>

namespace eipc {

/// A surface of a frame file. `name` is the OBJ object or group, empty for the
/// file's unnamed surface (every other format has one). When the surface holds
/// only some of the file's vertices or triangles, `file_vertex[i]` / `file_triangle[t]`
/// give the file's index of its vertex i / triangle t; empty means the same index.
/// Triangles are counted after fan triangulation of the file's polygons.
struct NamedSurface {
  std::string name;
  SurfaceMesh mesh;
  std::vector<int> file_vertex;
  std::vector<int> file_triangle;
};

struct SurfaceFile {
  std::vector<NamedSurface> surfaces;
  std::vector<std::string> notes;  ///< e.g. STL corners joined into vertices
};

/// File formats a frame can come in (lower-case extensions, with the dot).
bool is_surface_frame_extension(const std::string& extension);

/// Reads a frame file: .obj (objects/groups become surfaces unless `split_objects`
/// is false: then the whole file is one surface), .ply, .stl, .vtk (legacy), .vtu,
/// .vtp. Coordinates are the file's values, exactly (floats widen exactly); vertex
/// order is the file's. A file with no triangle throws InputError.
SurfaceFile read_surface_file(const std::string& path, bool split_objects = true);

}  // namespace eipc
