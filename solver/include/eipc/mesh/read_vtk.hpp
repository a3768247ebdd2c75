// Legacy VTK reader (unstructured grids and polydata).
#pragma once

#include "eipc/mesh/tet_mesh.hpp"

#include <string>

namespace eipc {

/// Reads the tetrahedra (cell type 10) of a legacy VTK file (ASCII or BINARY) with
/// DATASET UNSTRUCTURED_GRID (POINTS, CELLS, CELL_TYPES; both the classic "n i0 i1 ..."
/// CELLS layout and the 5.x OFFSETS/CONNECTIVITY layout). Vertex/line/surface cells are
/// ignored; other volume cells are rejected. Sections after CELL_TYPES (POINT_DATA, ...)
/// are not read. Throws InputError naming the file and line.
TetMesh read_vtk(const std::string& path);

/// The surface of a legacy VTK file: UNSTRUCTURED_GRID (triangles, quads, polygons,
/// pixels, triangle strips, and the boundary of its tetrahedra) or POLYDATA (POLYGONS,
/// TRIANGLE_STRIPS; VERTICES and LINES ignored), over all its points in file order.
/// Point coordinates are exact (float widens exactly).
SurfaceMesh read_vtk_surface(const std::string& path);

}  // namespace eipc
