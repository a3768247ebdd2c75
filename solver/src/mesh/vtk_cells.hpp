// Internal: the points and cells of a VTK dataset (legacy or XML, unstructured
// grid or polydata) and the two things eipc makes of them.
#pragma once

#include "eipc/mesh/tet_mesh.hpp"

#include <string>
#include <vector>

namespace eipc::mesh_detail {

/// VTK cell types eipc reads (the rest of the surface and line types are ignored).
enum VtkCellType : int {
  kVtkTriangle = 5, kVtkTriangleStrip = 6, kVtkPolygon = 7, kVtkPixel = 8, kVtkQuad = 9, kVtkTetra = 10,
};

struct VtkCells {
  Positions points;
  std::vector<long long> offsets{0};  ///< cell c uses connectivity[offsets[c] .. offsets[c+1])
  std::vector<long long> connectivity;
  std::vector<int> types;             ///< per cell
  std::vector<int> lines;             ///< per cell: the file line it was read on (0: unknown)

  std::size_t size() const { return types.size(); }
  void add_cell(int type, const long long* points_begin, std::size_t count, int line);
};

/// True for VTK volume cells other than the linear tetrahedron (rejected).
bool is_other_vtk_volume_type(int type);

/// The tetrahedra; other volume cells are rejected, surface cells ignored.
TetMesh tets_of_vtk_cells(VtkCells cells, const std::string& path);

/// The surface: triangles, polygons and quads (fan-triangulated), pixels, triangle
/// strips, and the boundary of the tetrahedra (outward for positive tets), over
/// every point of the file (indices unchanged). Other volume cells are rejected.
SurfaceMesh surface_of_vtk_cells(VtkCells cells, const std::string& path);

}  // namespace eipc::mesh_detail
