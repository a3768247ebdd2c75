// Legacy VTK ASCII reader:
//   "# vtk DataFile Version x.y" / title / ASCII / DATASET UNSTRUCTURED_GRID
//   POINTS n type, 3n numbers;  CELLS n size, then per cell "k i_1 .. i_k"
//   (or 5.x: CELLS n_offsets n_conn, OFFSETS type ..., CONNECTIVITY type ...);
//   CELL_TYPES n, n integers (10 = tetrahedron).
#include "eipc/mesh/read_vtk.hpp"

#include "text_file.hpp"

#include <string>
#include <vector>

namespace eipc {
namespace {

using mesh_detail::TextFile;

constexpr int kVtkTetra = 10;

/// VTK volume cell types other than the linear tetrahedron.
bool is_other_vtk_volume_type(int type) {
  switch (type) {
    case 11: case 12: case 13: case 14: case 15: case 16: case 24: case 25: case 26: case 27:
    case 29: case 31: case 32: case 33: case 42:
      return true;
    default:
      return false;
  }
}

struct Cells {
  std::vector<long long> offsets;  // cell c uses connectivity[offsets[c] .. offsets[c+1])
  std::vector<long long> connectivity;
  std::vector<int> lines;          // line of each cell (classic layout) or of the section
};

long long count_token(TextFile& f, const char* what) {
  const long long n = f.to_integer(f.next_token(what), what);
  f.check_count(n, 1, what);
  return n;
}

Positions read_points(TextFile& f) {
  const long long n = count_token(f, "number of points");
  f.next_token("POINTS data type");
  Positions x(n, 3);
  static const char* axis[3] = {"point x", "point y", "point z"};
  for (long long i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) x(i, k) = f.to_double(f.next_token("POINTS coordinates"), axis[k]);
  return x;
}

Cells read_cells(TextFile& f) {
  const long long a = count_token(f, "number of cells");
  const long long b = count_token(f, "CELLS size");
  Cells c;
  c.offsets.push_back(0);
  std::string_view next = f.next_token("CELLS data");
  if (next == "OFFSETS") {  // VTK 5.x layout: a = number of offsets (cells + 1), b = connectivity size
    f.next_token("OFFSETS data type");
    if (a < 1) f.fail("OFFSETS needs at least one entry");
    c.offsets.clear();
    for (long long i = 0; i < a; ++i) c.offsets.push_back(f.to_integer(f.next_token("OFFSETS"), "cell offset"));
    if (f.next_token("CONNECTIVITY") != "CONNECTIVITY") f.fail("expected CONNECTIVITY after OFFSETS");
    f.next_token("CONNECTIVITY data type");
    for (long long i = 0; i < b; ++i) c.connectivity.push_back(f.to_integer(f.next_token("CONNECTIVITY"), "cell point index"));
    for (std::size_t i = 0; i + 1 < c.offsets.size(); ++i)
      if (c.offsets[i] < 0 || c.offsets[i + 1] < c.offsets[i] || c.offsets[i + 1] > b) f.fail("bad cell offsets");
    c.lines.assign(c.offsets.size() - 1, f.line());
    return c;
  }
  long long used = 0;
  for (long long cell = 0; cell < a; ++cell) {
    if (cell > 0) next = f.next_token("CELLS data");
    const long long k = f.to_integer(next, "cell point count");
    c.lines.push_back(f.line());
    if (k < 0) f.fail("negative cell point count");
    used += k + 1;
    if (used > b) f.fail("CELLS size " + std::to_string(b) + " is smaller than the cell list");
    for (long long j = 0; j < k; ++j) c.connectivity.push_back(f.to_integer(f.next_token("CELLS data"), "cell point index"));
    c.offsets.push_back(static_cast<long long>(c.connectivity.size()));
  }
  if (used != b) f.fail("CELLS size " + std::to_string(b) + " does not match the cell list (" + std::to_string(used) + ")");
  return c;
}

std::vector<int> read_cell_types(TextFile& f) {
  const long long n = count_token(f, "number of cell types");
  std::vector<int> types;
  for (long long i = 0; i < n; ++i) types.push_back(f.to_int(f.next_token("CELL_TYPES"), "cell type"));
  return types;
}

}  // namespace

TetMesh read_vtk(const std::string& path) {
  TextFile f(path);
  std::string_view line;
  if (!f.next_raw_line(line)) f.fail_file("empty file (not a VTK file)");
  if (line.rfind("# vtk DataFile", 0) != 0) f.fail("not a legacy VTK file (first line must be '# vtk DataFile Version ...')");
  if (!f.next_raw_line(line)) f.fail_eof("the title line");
  if (f.next_token("ASCII/BINARY") != "ASCII") f.fail("only ASCII VTK files are supported");
  if (f.next_token("DATASET") != "DATASET") f.fail("expected DATASET");
  if (const auto kind = f.next_token("dataset type"); kind != "UNSTRUCTURED_GRID")
    f.fail("dataset type must be UNSTRUCTURED_GRID, found " + std::string(kind));

  Positions points;
  Cells cells;
  std::vector<int> types;
  bool has_points = false, has_cells = false, has_types = false;
  while (!(has_points && has_cells && has_types)) {
    if (f.at_end()) f.fail_eof(!has_points ? "POINTS" : !has_cells ? "CELLS" : "CELL_TYPES");
    const std::string_view key = f.next_token("section keyword");
    if (key == "POINTS") {
      points = read_points(f);
      has_points = true;
    } else if (key == "CELLS") {
      cells = read_cells(f);
      has_cells = true;
    } else if (key == "CELL_TYPES") {
      types = read_cell_types(f);
      has_types = true;
    } else {
      f.fail("unexpected keyword '" + std::string(key) + "' before POINTS/CELLS/CELL_TYPES are complete");
    }
  }
  const std::size_t num_cells = cells.offsets.size() - 1;
  if (types.size() != num_cells)
    f.fail("CELL_TYPES lists " + std::to_string(types.size()) + " cells, CELLS has " + std::to_string(num_cells));

  std::vector<Eigen::Index> tet_cells;
  for (std::size_t c = 0; c < num_cells; ++c) {
    const long long k = cells.offsets[c + 1] - cells.offsets[c];
    if (is_other_vtk_volume_type(types[c]))
      throw InputError(path + ": cell " + std::to_string(c) + " has unsupported volume cell type " +
                       std::to_string(types[c]) + " (only tetrahedra, type 10)");
    if (types[c] != kVtkTetra) continue;
    if (k != 4)
      throw InputError(path + ":" + std::to_string(cells.lines[c]) + ": tetrahedron cell " + std::to_string(c) + " has " +
                       std::to_string(k) + " points, expected 4");
    tet_cells.push_back(static_cast<Eigen::Index>(c));
  }
  if (tet_cells.empty()) f.fail_file("no tetrahedra (cell type 10) in the mesh");

  TetMesh mesh;
  mesh.vertices = std::move(points);
  mesh.tets.resize(static_cast<Eigen::Index>(tet_cells.size()), 4);
  for (std::size_t e = 0; e < tet_cells.size(); ++e) {
    const auto c = static_cast<std::size_t>(tet_cells[e]);
    for (int k = 0; k < 4; ++k) {
      const long long v = cells.connectivity[static_cast<std::size_t>(cells.offsets[c]) + k];
      if (v < 0 || v >= mesh.vertices.rows())
        throw InputError(path + ":" + std::to_string(cells.lines[c]) + ": cell " + std::to_string(c) + " refers to point " +
                         std::to_string(v) + ", out of range (0.." + std::to_string(mesh.vertices.rows() - 1) + ")");
      mesh.tets(static_cast<Eigen::Index>(e), k) = static_cast<int>(v);
    }
  }
  return mesh;
}

}  // namespace eipc
