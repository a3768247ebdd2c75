// STL surface reader (ASCII and binary).
#pragma once

#include "eipc/mesh/tet_mesh.hpp"

#include <string>

namespace eipc {

/// An STL surface: STL stores each triangle's three corners, not shared vertices,
/// so corners with exactly equal coordinates are joined into one vertex (numbered
/// in order of first appearance; +0 and -0 are equal).
struct StlSurface {
  SurfaceMesh mesh;
  long long corners = 0;  ///< 3 x triangles: what was joined into mesh.vertices
};

/// Binary when the size is exactly 84 + 50 n bytes for the n the header declares
/// (float32 little-endian, widened exactly), else ASCII ("solid" ... "facet normal"
/// ... "outer loop" / three "vertex x y z" / "endloop" / "endfacet" ... "endsolid";
/// several solids are concatenated; the text's numbers are read as doubles).
/// Normals are ignored. Throws InputError naming the file, line or byte and problem.
StlSurface read_stl(const std::string& path);

}  // namespace eipc
