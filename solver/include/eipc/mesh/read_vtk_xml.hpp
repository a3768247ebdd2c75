// VTK XML reader: unstructured grids (.vtu) and polydata (.vtp).
#pragma once

#include "eipc/mesh/tet_mesh.hpp"

#include <string>

namespace eipc {

/// The surface of a .vtu (triangles, quads, polygons, pixels, triangle strips, the
/// boundary of its tetrahedra) or .vtp (Polys, Strips; Verts and Lines ignored),
/// every Piece in order, over all its points in file order. DataArrays may be
/// ascii, binary (base64) or appended (raw or base64), uncompressed or zlib
/// (vtkZLibDataCompressor, VTK's default), with UInt32 or UInt64 headers, of either
/// byte order. Float32 points widen exactly. Throws InputError naming the file,
/// line and problem.
SurfaceMesh read_vtk_xml(const std::string& path);

}  // namespace eipc
