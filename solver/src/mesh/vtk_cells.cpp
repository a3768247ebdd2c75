#include "vtk_cells.hpp"

#include "eipc/common.hpp"
#include "eipc/mesh/surface.hpp"

#include <array>

namespace eipc::mesh_detail {
namespace {

std::string where(const std::string& path, const VtkCells& cells, std::size_t c) {
  const int line = c < cells.lines.size() ? cells.lines[c] : 0;
  return line > 0 ? path + ":" + std::to_string(line) : path;
}

/// The cell's point `k`, checked against the number of points.
int point_of(const VtkCells& cells, std::size_t c, long long k, const std::string& path) {
  const long long v = cells.connectivity[static_cast<std::size_t>(cells.offsets[c] + k)];
  if (v < 0 || v >= cells.points.rows())
    throw InputError(where(path, cells, c) + ": cell " + std::to_string(c) + " refers to point " + std::to_string(v) +
                     ", out of range (0.." + std::to_string(cells.points.rows() - 1) + ")");
  return static_cast<int>(v);
}

}  // namespace

void VtkCells::add_cell(int type, const long long* points_begin, std::size_t count, int line) {
  connectivity.insert(connectivity.end(), points_begin, points_begin + count);
  offsets.push_back(static_cast<long long>(connectivity.size()));
  types.push_back(type);
  lines.push_back(line);
}

bool is_other_vtk_volume_type(int type) {
  switch (type) {
    case 11: case 12: case 13: case 14: case 15: case 16: case 24: case 25: case 26: case 27:
    case 29: case 31: case 32: case 33: case 42:
      return true;
    default:
      return false;
  }
}

TetMesh tets_of_vtk_cells(VtkCells cells, const std::string& path) {
  std::vector<std::array<int, 4>> tets;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const long long k = cells.offsets[c + 1] - cells.offsets[c];
    if (is_other_vtk_volume_type(cells.types[c]))
      throw InputError(path + ": cell " + std::to_string(c) + " has unsupported volume cell type " +
                       std::to_string(cells.types[c]) + " (only tetrahedra, type 10)");
    if (cells.types[c] != kVtkTetra) continue;
    if (k != 4)
      throw InputError(where(path, cells, c) + ": tetrahedron cell " + std::to_string(c) + " has " + std::to_string(k) +
                       " points, expected 4");
    tets.push_back({point_of(cells, c, 0, path), point_of(cells, c, 1, path), point_of(cells, c, 2, path),
                    point_of(cells, c, 3, path)});
  }
  if (tets.empty()) throw InputError(path + ": no tetrahedra (cell type 10) in the mesh");
  TetMesh mesh;
  mesh.vertices = std::move(cells.points);
  mesh.tets.resize(static_cast<Eigen::Index>(tets.size()), 4);
  for (std::size_t e = 0; e < tets.size(); ++e)
    for (int k = 0; k < 4; ++k) mesh.tets(static_cast<Eigen::Index>(e), k) = tets[e][k];
  return mesh;
}

SurfaceMesh surface_of_vtk_cells(VtkCells cells, const std::string& path) {
  std::vector<std::array<int, 3>> triangles;
  std::vector<std::array<int, 4>> tets;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const long long k = cells.offsets[c + 1] - cells.offsets[c];
    const int type = cells.types[c];
    auto p = [&](long long i) { return point_of(cells, c, i, path); };
    auto need = [&](bool ok, const char* shape) {
      if (!ok)
        throw InputError(where(path, cells, c) + ": cell " + std::to_string(c) + " (" + shape + ") has " +
                         std::to_string(k) + " points");
    };
    if (is_other_vtk_volume_type(type))
      throw InputError(path + ": cell " + std::to_string(c) + " has unsupported volume cell type " +
                       std::to_string(type) + " (surfaces, and tetrahedra, type 10)");
    switch (type) {
      case kVtkTriangle: case kVtkPolygon: case kVtkQuad:
        need(type == kVtkTriangle ? k == 3 : type == kVtkQuad ? k == 4 : k >= 3, "a polygon");
        for (long long j = 1; j + 1 < k; ++j) triangles.push_back({p(0), p(j), p(j + 1)});
        break;
      case kVtkPixel:  // corners in lexicographic order: the quad is 0 1 3 2
        need(k == 4, "a pixel");
        triangles.push_back({p(0), p(1), p(3)});
        triangles.push_back({p(0), p(3), p(2)});
        break;
      case kVtkTriangleStrip:  // every other triangle flips to keep the strip's orientation
        need(k >= 3, "a triangle strip");
        for (long long j = 0; j + 2 < k; ++j)
          triangles.push_back(j % 2 == 0 ? std::array<int, 3>{p(j), p(j + 1), p(j + 2)}
                                         : std::array<int, 3>{p(j + 1), p(j), p(j + 2)});
        break;
      case kVtkTetra:
        need(k == 4, "a tetrahedron");
        tets.push_back({p(0), p(1), p(2), p(3)});
        break;
      default: break;  // vertices, lines: no surface
    }
  }
  Tets tet_matrix(static_cast<Eigen::Index>(tets.size()), 4);
  for (std::size_t e = 0; e < tets.size(); ++e)
    for (int k = 0; k < 4; ++k) tet_matrix(static_cast<Eigen::Index>(e), k) = tets[e][k];
  const Tris boundary = tets.empty() ? Tris(0, 3) : boundary_faces(tet_matrix);
  if (triangles.empty() && boundary.rows() == 0) throw InputError(path + ": no surface cells and no tetrahedra");
  SurfaceMesh mesh;
  mesh.vertices = std::move(cells.points);
  mesh.faces.resize(static_cast<Eigen::Index>(triangles.size()) + boundary.rows(), 3);
  for (std::size_t t = 0; t < triangles.size(); ++t)
    for (int k = 0; k < 3; ++k) mesh.faces(static_cast<Eigen::Index>(t), k) = triangles[t][k];
  mesh.faces.bottomRows(boundary.rows()) = boundary;
  return mesh;
}

}  // namespace eipc::mesh_detail
