// TetGen reader.
//   .node: "n 3 nattr nmarker", then n lines "index x y z [attr...] [marker]"
//   .ele : "m 4 nattr",         then m lines "index v0 v1 v2 v3 [attr...]"
// Indices are consecutive from the first point's number (0 or 1); '#' starts a comment.
#include "eipc/mesh/read_tetgen.hpp"

#include "text_file.hpp"

#include <string>
#include <vector>

namespace eipc {
namespace {

using mesh_detail::TextFile;
using Tokens = std::vector<std::string_view>;

std::string base_path(const std::string& path) {
  const std::string ext = mesh_detail::extension_of(path);
  if (ext != ".node" && ext != ".ele")
    throw InputError(path + ": TetGen mesh path must end in .node or .ele");
  return path.substr(0, path.size() - ext.size());
}

void expect_tetgen_line(TextFile& f, Tokens& t, const char* what) {
  if (!f.next_line(t, '#')) f.fail_eof(what);
}

Positions read_nodes(const std::string& path, int& base) {
  TextFile f(path);
  Tokens t;
  expect_tetgen_line(f, t, "the .node header");
  if (t.size() < 2) f.fail(".node header needs '<#points> <dimension> [<#attributes> <#markers>]'");
  const long long n = f.to_integer(t[0], "number of points");
  const int dim = f.to_int(t[1], "dimension");
  const int nattr = t.size() > 2 ? f.to_int(t[2], "number of attributes") : 0;
  const int nmark = t.size() > 3 ? f.to_int(t[3], "number of boundary markers") : 0;
  if (n < 0 || nattr < 0 || nmark < 0 || nmark > 1) f.fail("bad .node header");
  if (dim != 3) f.fail("dimension must be 3, found " + std::to_string(dim));
  f.check_count(n, 4, "number of points");
  const std::size_t values = 4 + static_cast<std::size_t>(nattr + nmark);
  Positions x(n, 3);
  for (long long i = 0; i < n; ++i) {
    expect_tetgen_line(f, t, ("point " + std::to_string(i + 1) + " of " + std::to_string(n)).c_str());
    if (t.size() != values)
      f.fail("point line needs " + std::to_string(values) + " values (index x y z + attributes/marker), found " +
             std::to_string(t.size()));
    const long long index = f.to_integer(t[0], "point number");
    if (i == 0) {
      if (index != 0 && index != 1) f.fail("first point number must be 0 or 1, found " + std::to_string(index));
      base = static_cast<int>(index);
    } else if (index != base + i) {
      f.fail("point numbers must be consecutive: expected " + std::to_string(base + i) + ", found " + std::to_string(index));
    }
    x(i, 0) = f.to_double(t[1], "point x");
    x(i, 1) = f.to_double(t[2], "point y");
    x(i, 2) = f.to_double(t[3], "point z");
  }
  if (n == 0) base = 0;
  return x;
}

Tets read_elements(const std::string& path, int base, Eigen::Index num_points) {
  TextFile f(path);
  Tokens t;
  expect_tetgen_line(f, t, "the .ele header");
  if (t.size() < 2) f.fail(".ele header needs '<#tetrahedra> <nodes per tetrahedron> [<#attributes>]'");
  const long long m = f.to_integer(t[0], "number of tetrahedra");
  const int per = f.to_int(t[1], "nodes per tetrahedron");
  const int nattr = t.size() > 2 ? f.to_int(t[2], "number of attributes") : 0;
  if (m < 0 || nattr < 0) f.fail("bad .ele header");
  if (per != 4) f.fail("only 4-node tetrahedra are supported, header says " + std::to_string(per) + " nodes per tetrahedron");
  if (m == 0) f.fail_file("no tetrahedra in the mesh");
  f.check_count(m, 5, "number of tetrahedra");
  const std::size_t values = 5 + static_cast<std::size_t>(nattr);
  Tets tets(m, 4);
  for (long long e = 0; e < m; ++e) {
    expect_tetgen_line(f, t, ("tetrahedron " + std::to_string(e + 1) + " of " + std::to_string(m)).c_str());
    if (t.size() != values)
      f.fail("tetrahedron line needs " + std::to_string(values) + " values (index, 4 vertices, attributes), found " +
             std::to_string(t.size()) + " (wrong vertex count?)");
    for (int k = 0; k < 4; ++k) {
      const long long v = f.to_integer(t[1 + k], "tetrahedron vertex") - base;
      if (v < 0 || v >= num_points)
        f.fail("vertex " + std::string(t[1 + k]) + " out of range (points are numbered " + std::to_string(base) + ".." +
               std::to_string(base + num_points - 1) + ")");
      tets(e, k) = static_cast<int>(v);
    }
  }
  return tets;
}

}  // namespace

TetMesh read_tetgen(const std::string& path) {
  const std::string base = base_path(path);
  int index_base = 0;
  TetMesh mesh;
  mesh.vertices = read_nodes(base + ".node", index_base);
  mesh.tets = read_elements(base + ".ele", index_base, mesh.vertices.rows());
  return mesh;
}

}  // namespace eipc
