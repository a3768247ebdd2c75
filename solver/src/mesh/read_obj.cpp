// Wavefront OBJ reader: "v x y z [w | r g b]" and "f c1 c2 c3 ..." with corners "i", "i/t",
// "i//n", "i/t/n"; index i > 0 is 1-based, i < 0 counts back from the last vertex so far
// (-1 = the latest). Polygons are fan-triangulated: (c0, c_j, c_{j+1}). `o` and `g`
// statements name the object and group of the faces after them.
#include "eipc/mesh/read_obj.hpp"

#include "text_file.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <vector>

namespace eipc {
namespace {

/// The whole file: vertices, triangles, and the object and group of each triangle.
struct ObjText {
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> triangles;
  std::vector<int> object, group;               ///< per triangle: index into the name lists
  std::vector<std::string> object_names{""}, group_names{""};  ///< 0: before any o / g
  bool has_objects = false;
};

/// Index of `name` in `names`, appended when new.
int name_index(std::vector<std::string>& names, std::map<std::string, int>& index, const std::string& name) {
  const auto [it, inserted] = index.emplace(name, static_cast<int>(names.size()));
  if (inserted) names.push_back(name);
  return it->second;
}

/// The rest of a statement after its keyword, trimmed ("o my object" -> "my object").
std::string statement_name(const std::vector<std::string_view>& t) {
  if (t.size() < 2) return "";
  const char* begin = t[1].data();
  const char* end = t.back().data() + t.back().size();
  return std::string(begin, end);
}

ObjText parse_obj(const std::string& path) {
  mesh_detail::TextFile f(path);
  ObjText obj;
  std::map<std::string, int> object_index{{"", 0}}, group_index{{"", 0}};
  int object = 0, group = 0;
  std::vector<std::string_view> t;
  std::vector<int> corners;
  while (f.next_line(t, '#')) {
    if (t[0] == "v") {
      if (t.size() < 4) f.fail("vertex line needs 'v x y z', found " + std::to_string(t.size() - 1) + " values");
      obj.vertices.emplace_back(f.to_double(t[1], "vertex x"), f.to_double(t[2], "vertex y"),
                                f.to_double(t[3], "vertex z"));
    } else if (t[0] == "f") {
      if (t.size() < 4) f.fail("face has " + std::to_string(t.size() - 1) + " vertices, needs at least 3");
      corners.clear();
      const long long n = static_cast<long long>(obj.vertices.size());
      for (std::size_t k = 1; k < t.size(); ++k) {
        const std::string_view corner = t[k].substr(0, t[k].find('/'));
        const long long i = f.to_integer(corner, "face vertex index");
        const long long v = i > 0 ? i - 1 : n + i;
        if (i == 0 || v < 0 || v >= n)
          f.fail("face vertex index " + std::string(corner) + " out of range (" + std::to_string(n) +
                 " vertices defined so far; indices are 1-based, negative counts back)");
        corners.push_back(static_cast<int>(v));
      }
      for (std::size_t j = 1; j + 1 < corners.size(); ++j) {
        obj.triangles.push_back({corners[0], corners[j], corners[j + 1]});
        obj.object.push_back(object);
        obj.group.push_back(group);
      }
    } else if (t[0] == "o") {
      obj.has_objects = true;
      object = name_index(obj.object_names, object_index, statement_name(t));
    } else if (t[0] == "g") {
      group = name_index(obj.group_names, group_index, statement_name(t));
    }
  }
  if (obj.triangles.empty()) f.fail_file("no faces in the OBJ file");
  return obj;
}

}  // namespace

SurfaceMesh read_obj(const std::string& path) {
  const ObjText obj = parse_obj(path);
  SurfaceMesh mesh;
  mesh.vertices.resize(static_cast<Eigen::Index>(obj.vertices.size()), 3);
  for (std::size_t i = 0; i < obj.vertices.size(); ++i)
    mesh.vertices.row(static_cast<Eigen::Index>(i)) = obj.vertices[i].transpose();
  mesh.faces.resize(static_cast<Eigen::Index>(obj.triangles.size()), 3);
  for (std::size_t i = 0; i < obj.triangles.size(); ++i)
    for (int k = 0; k < 3; ++k) mesh.faces(static_cast<Eigen::Index>(i), k) = obj.triangles[i][k];
  return mesh;
}

std::vector<NamedSurface> read_obj_surfaces(const std::string& path) {
  const ObjText obj = parse_obj(path);
  const std::vector<int>& part = obj.has_objects ? obj.object : obj.group;
  const std::vector<std::string>& names = obj.has_objects ? obj.object_names : obj.group_names;
  std::vector<NamedSurface> surfaces;
  for (int p = 0; p < static_cast<int>(names.size()); ++p) {
    NamedSurface s;
    s.name = names[p];
    for (std::size_t t = 0; t < obj.triangles.size(); ++t)
      if (part[t] == p) {
        s.file_triangle.push_back(static_cast<int>(t));
        s.file_vertex.insert(s.file_vertex.end(), obj.triangles[t].begin(), obj.triangles[t].end());
      }
    if (s.file_triangle.empty()) continue;
    std::sort(s.file_vertex.begin(), s.file_vertex.end());
    s.file_vertex.erase(std::unique(s.file_vertex.begin(), s.file_vertex.end()), s.file_vertex.end());
    s.mesh.vertices.resize(static_cast<Eigen::Index>(s.file_vertex.size()), 3);
    for (std::size_t i = 0; i < s.file_vertex.size(); ++i)
      s.mesh.vertices.row(static_cast<Eigen::Index>(i)) = obj.vertices[s.file_vertex[i]].transpose();
    s.mesh.faces.resize(static_cast<Eigen::Index>(s.file_triangle.size()), 3);
    for (std::size_t i = 0; i < s.file_triangle.size(); ++i)
      for (int k = 0; k < 3; ++k) {
        const int v = obj.triangles[s.file_triangle[i]][k];
        s.mesh.faces(static_cast<Eigen::Index>(i), k) =
            static_cast<int>(std::lower_bound(s.file_vertex.begin(), s.file_vertex.end(), v) - s.file_vertex.begin());
      }
    surfaces.push_back(std::move(s));
  }
  return surfaces;
}

}  // namespace eipc
