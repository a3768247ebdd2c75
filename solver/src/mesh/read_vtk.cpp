// Legacy VTK reader:
//   "# vtk DataFile Version x.y" / title / ASCII|BINARY / DATASET UNSTRUCTURED_GRID|POLYDATA
//   POINTS n type, 3n numbers;  CELLS n size, then per cell "k i_1 .. i_k"
//   (or 5.x: CELLS n_offsets n_conn, OFFSETS type ..., CONNECTIVITY type ...);
//   CELL_TYPES n, n integers (10 = tetrahedron); polydata: VERTICES, LINES, POLYGONS,
//   TRIANGLE_STRIPS laid out like CELLS. BINARY data is big-endian, after its keyword's line.
#include "eipc/mesh/read_vtk.hpp"

#include "byte_reader.hpp"
#include "text_file.hpp"
#include "vtk_cells.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace eipc {
namespace {

using mesh_detail::TextFile;
using mesh_detail::VtkCells;

/// The numbers after a keyword line, in the file's encoding.
class LegacyNumbers {
public:
  LegacyNumbers(TextFile& f, bool binary) : f_(f), binary_(binary) {}

  /// `n` values of VTK type `type` (float, double, int, vtktypeint64, ...).
  std::vector<double> read(long long n, std::string_view type, const char* what) {
    const std::size_t size = size_of(type);
    f_.check_count(n, binary_ ? static_cast<int>(size) : 1, what);
    std::vector<double> out(static_cast<std::size_t>(n));
    if (!binary_) {
      for (auto& v : out) {  // a number is the value of the declared type nearest its text
        const std::string_view token = f_.next_token(what);
        v = type == "float"    ? f_.to_float(token, what)
            : type == "double" ? f_.to_double(token, what)
                               : static_cast<double>(f_.to_integer(token, what));
      }
      return out;
    }
    const std::string_view bytes = f_.next_bytes(static_cast<std::size_t>(n) * size, what);
    mesh_detail::ByteReader in(f_.path(), bytes, true, f_.offset() - bytes.size());
    for (auto& v : out) v = value(in, type, what);
    return out;
  }

private:
  std::size_t size_of(std::string_view t) const {
    if (t == "char" || t == "unsigned_char") return 1;
    if (t == "short" || t == "unsigned_short") return 2;
    if (t == "int" || t == "unsigned_int" || t == "float") return 4;
    if (t == "long" || t == "unsigned_long" || t == "double" || t == "vtktypeint64" || t == "vtktypeuint64") return 8;
    f_.fail("unknown data type '" + std::string(t) + "'");
  }
  static double value(mesh_detail::ByteReader& in, std::string_view t, const char* what) {
    if (t == "float") return static_cast<double>(in.read<float>(what));
    if (t == "double") return in.read<double>(what);
    if (t == "char") return in.read<std::int8_t>(what);
    if (t == "unsigned_char") return in.read<std::uint8_t>(what);
    if (t == "short") return in.read<std::int16_t>(what);
    if (t == "unsigned_short") return in.read<std::uint16_t>(what);
    if (t == "int") return in.read<std::int32_t>(what);
    if (t == "unsigned_int") return in.read<std::uint32_t>(what);
    if (t == "vtktypeuint64" || t == "unsigned_long") return static_cast<double>(in.read<std::uint64_t>(what));
    return static_cast<double>(in.read<std::int64_t>(what));
  }

  TextFile& f_;
  bool binary_;
};

/// A count of items that each take at least `tokens_each` tokens of the rest of the file:
/// a larger one cannot be read, and checked here it cannot overflow what is computed from it.
long long count_token(TextFile& f, const char* what, int tokens_each = 1) {
  const long long n = f.to_integer(f.next_token(what), what);
  f.check_count(n, tokens_each, what);
  return n;
}

long long to_index(TextFile& f, double v, const char* what) {
  if (!(std::abs(v) < 9e15) || v != std::floor(v)) f.fail(std::string("bad ") + what);
  return static_cast<long long>(v);
}

Positions read_points(TextFile& f, LegacyNumbers& numbers) {
  const long long n = count_token(f, "number of points", 3);
  const std::string type(f.next_token("POINTS data type"));
  const std::vector<double> v = numbers.read(3 * n, type, "POINTS coordinates");
  Positions x(n, 3);
  for (long long i = 0; i < 3 * n; ++i) {
    if (!std::isfinite(v[i])) f.fail("non-finite value for point " + std::to_string(i / 3));
    x(i / 3, i % 3) = v[i];
  }
  return x;
}

/// CELLS (or a polydata section) into `cells`, each of type `type` (0: set later by CELL_TYPES).
void read_cells(TextFile& f, LegacyNumbers& numbers, bool binary, int type, VtkCells& cells) {
  const long long a = count_token(f, "number of cells");
  const long long b = count_token(f, "cell list size");
  std::vector<long long> points;
  const TextFile::Mark before = f.mark();
  if (f.at_end() || f.next_token("cell data") != "OFFSETS") {  // classic: b numbers, per cell "k i_1 .. i_k"
    f.go_back(before);
    if (binary) {
      const std::vector<double> list = numbers.read(b, "int", "cell list");
      long long i = 0;
      for (long long c = 0; c < a; ++c) {
        if (i >= b) f.fail("cell list size " + std::to_string(b) + " is smaller than the cell list");
        const long long k = to_index(f, list[i++], "cell point count");
        if (k < 0 || k > b - i) f.fail("cell list size " + std::to_string(b) + " is smaller than the cell list");
        points.clear();
        for (long long j = 0; j < k; ++j) points.push_back(to_index(f, list[i++], "cell point index"));
        cells.add_cell(type, points.data(), points.size(), 0);
      }
      if (i != b) f.fail("cell list size " + std::to_string(b) + " does not match the cell list (" + std::to_string(i) + ")");
      return;
    }
    f.check_count(b, 1, "cell list size");
    long long used = 0;
    for (long long c = 0; c < a; ++c) {
      const long long k = f.to_integer(f.next_token("cell data"), "cell point count");
      const int line = f.line();
      if (k < 0) f.fail("negative cell point count");
      used += k + 1;
      if (used > b) f.fail("cell list size " + std::to_string(b) + " is smaller than the cell list");
      points.clear();
      for (long long j = 0; j < k; ++j) points.push_back(f.to_integer(f.next_token("cell data"), "cell point index"));
      cells.add_cell(type, points.data(), points.size(), line);
    }
    if (used != b) f.fail("cell list size " + std::to_string(b) + " does not match the cell list (" + std::to_string(used) + ")");
    return;
  }
  // 5.x: a = cells + 1 offsets, b = connectivity size
  const std::string offset_type(f.next_token("OFFSETS data type"));
  if (a < 1) f.fail("OFFSETS needs at least one entry");
  const std::vector<double> offsets = numbers.read(a, offset_type, "OFFSETS");
  if (f.next_token("CONNECTIVITY") != "CONNECTIVITY") f.fail("expected CONNECTIVITY after OFFSETS");
  const std::string conn_type(f.next_token("CONNECTIVITY data type"));
  const std::vector<double> conn = numbers.read(b, conn_type, "CONNECTIVITY");
  for (long long c = 0; c + 1 < a; ++c) {
    const long long lo = to_index(f, offsets[c], "cell offset"), hi = to_index(f, offsets[c + 1], "cell offset");
    if (lo < 0 || hi < lo || hi > b) f.fail("bad cell offsets");
    points.clear();
    for (long long i = lo; i < hi; ++i) points.push_back(to_index(f, conn[i], "cell point index"));
    cells.add_cell(type, points.data(), points.size(), f.line());
  }
}

/// The polydata section keywords and the cell type of their cells (polygons may have any size).
int polydata_cell_type(std::string_view key) {
  if (key == "VERTICES") return 1;
  if (key == "LINES") return 4;
  if (key == "POLYGONS") return mesh_detail::kVtkPolygon;
  if (key == "TRIANGLE_STRIPS") return mesh_detail::kVtkTriangleStrip;
  return 0;
}

VtkCells read_legacy(const std::string& path) {
  TextFile f(path);
  std::string_view line;
  if (!f.next_raw_line(line)) f.fail_file("empty file (not a VTK file)");
  if (line.rfind("# vtk DataFile", 0) != 0) f.fail("not a legacy VTK file (first line must be '# vtk DataFile Version ...')");
  if (!f.next_raw_line(line)) f.fail_eof("the title line");
  const std::string_view encoding = f.next_token("ASCII/BINARY");
  if (encoding != "ASCII" && encoding != "BINARY") f.fail("expected ASCII or BINARY, found '" + std::string(encoding) + "'");
  const bool binary = encoding == "BINARY";
  if (f.next_token("DATASET") != "DATASET") f.fail("expected DATASET");
  const std::string_view kind = f.next_token("dataset type");
  const bool polydata = kind == "POLYDATA";
  if (!polydata && kind != "UNSTRUCTURED_GRID")
    f.fail("dataset type must be UNSTRUCTURED_GRID or POLYDATA, found " + std::string(kind));

  LegacyNumbers numbers(f, binary);
  VtkCells cells;
  bool has_points = false, has_cells = false, has_types = false;
  while (true) {
    if (polydata ? has_points && f.at_end() : has_points && has_cells && has_types) break;
    if (f.at_end()) f.fail_eof(!has_points ? "POINTS" : !has_cells ? "CELLS" : "CELL_TYPES");
    const std::string_view key = f.next_token("section keyword");
    if (key == "POINTS" && !has_points) {
      cells.points = read_points(f, numbers);
      has_points = true;
    } else if (key == "CELLS" && !polydata && !has_cells) {
      read_cells(f, numbers, binary, 0, cells);
      has_cells = true;
    } else if (key == "CELL_TYPES" && !polydata && !has_types) {
      const long long n = count_token(f, "number of cell types");
      const std::vector<double> types = numbers.read(n, "int", "CELL_TYPES");
      if (types.size() != cells.size())
        f.fail("CELL_TYPES lists " + std::to_string(types.size()) + " cells, CELLS has " + std::to_string(cells.size()));
      for (std::size_t c = 0; c < types.size(); ++c) {
        const long long type = to_index(f, types[c], "cell type");
        if (type < 0 || type > 255) f.fail("cell " + std::to_string(c) + " has no valid type (" + std::to_string(type) + ")");
        cells.types[c] = static_cast<int>(type);
      }
      has_types = true;
    } else if (polydata && polydata_cell_type(key) != 0) {
      read_cells(f, numbers, binary, polydata_cell_type(key), cells);
    } else if (polydata && (key == "POINT_DATA" || key == "CELL_DATA" || key == "FIELD")) {
      break;  // attributes: not read
    } else {
      f.fail("unexpected keyword '" + std::string(key) + "'");
    }
  }
  return cells;
}

}  // namespace

TetMesh read_vtk(const std::string& path) { return mesh_detail::tets_of_vtk_cells(read_legacy(path), path); }

SurfaceMesh read_vtk_surface(const std::string& path) {
  return mesh_detail::surface_of_vtk_cells(read_legacy(path), path);
}

}  // namespace eipc
