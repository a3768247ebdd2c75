// Wavefront OBJ reader: "v x y z [w | r g b]" and "f c1 c2 c3 ..." with corners "i", "i/t",
// "i//n", "i/t/n"; index i > 0 is 1-based, i < 0 counts back from the last vertex so far
// (-1 = the latest). Polygons are fan-triangulated: (c0, c_j, c_{j+1}).
#include "eipc/mesh/read_obj.hpp"

#include "text_file.hpp"

#include <array>
#include <string>
#include <vector>

namespace eipc {

SurfaceMesh read_obj(const std::string& path) {
  mesh_detail::TextFile f(path);
  std::vector<std::string_view> t;
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> faces;
  std::vector<int> corners;
  while (f.next_line(t, '#')) {
    if (t[0] == "v") {
      if (t.size() < 4) f.fail("vertex line needs 'v x y z', found " + std::to_string(t.size() - 1) + " values");
      vertices.emplace_back(f.to_double(t[1], "vertex x"), f.to_double(t[2], "vertex y"), f.to_double(t[3], "vertex z"));
    } else if (t[0] == "f") {
      if (t.size() < 4) f.fail("face has " + std::to_string(t.size() - 1) + " vertices, needs at least 3");
      corners.clear();
      const long long n = static_cast<long long>(vertices.size());
      for (std::size_t k = 1; k < t.size(); ++k) {
        const std::string_view corner = t[k].substr(0, t[k].find('/'));
        const long long i = f.to_integer(corner, "face vertex index");
        const long long v = i > 0 ? i - 1 : n + i;
        if (i == 0 || v < 0 || v >= n)
          f.fail("face vertex index " + std::string(corner) + " out of range (" + std::to_string(n) +
                 " vertices defined so far; indices are 1-based, negative counts back)");
        corners.push_back(static_cast<int>(v));
      }
      for (std::size_t j = 1; j + 1 < corners.size(); ++j) faces.push_back({corners[0], corners[j], corners[j + 1]});
    }
  }
  if (faces.empty()) f.fail_file("no faces in the OBJ file");
  SurfaceMesh mesh;
  mesh.vertices.resize(static_cast<Eigen::Index>(vertices.size()), 3);
  for (std::size_t i = 0; i < vertices.size(); ++i) mesh.vertices.row(static_cast<Eigen::Index>(i)) = vertices[i].transpose();
  mesh.faces.resize(static_cast<Eigen::Index>(faces.size()), 3);
  for (std::size_t i = 0; i < faces.size(); ++i)
    for (int k = 0; k < 3; ++k) mesh.faces(static_cast<Eigen::Index>(i), k) = faces[i][k];
  return mesh;
}

}  // namespace eipc
