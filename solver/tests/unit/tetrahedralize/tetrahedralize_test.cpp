// Tetrahedral meshes of closed surfaces (CGAL Mesh_3): valid tets, the volume and the
// boundary the surface gives, the same tets every time, and clear refusals of surfaces
// that bound no volume.
#include "eipc/distance/point_triangle.hpp"
#include "eipc/mesh/read_msh.hpp"
#include "eipc/mesh/surface.hpp"
#include "eipc/mesh/validate.hpp"
#include "eipc/mesh/volume.hpp"
#include "eipc/mesh/write_mesh.hpp"
#include "eipc/tetrahedralize/tetrahedralize.hpp"
#include "eipc/testing/box_mesh.hpp"

#include <Eigen/Geometry>
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <unistd.h>

using namespace eipc;

namespace {

/// An octahedron subdivided `levels` times, its vertices pushed onto the sphere of `radius`.
SurfaceMesh sphere_surface(double radius, int levels) {
  std::vector<Vec3> v = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  std::vector<std::array<int, 3>> f = {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4},
                                       {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};
  for (int l = 0; l < levels; ++l) {
    std::map<std::pair<int, int>, int> middle;
    const auto mid = [&](int a, int b) {
      const auto key = std::minmax(a, b);
      const auto it = middle.find(key);
      if (it != middle.end()) return it->second;
      v.push_back(((v[std::size_t(a)] + v[std::size_t(b)]) / 2).normalized());
      return middle[key] = int(v.size()) - 1;
    };
    std::vector<std::array<int, 3>> next;
    for (const auto& t : f) {
      const int ab = mid(t[0], t[1]), bc = mid(t[1], t[2]), ca = mid(t[2], t[0]);
      next.insert(next.end(), {{t[0], ab, ca}, {ab, t[1], bc}, {ca, bc, t[2]}, {ab, bc, ca}});
    }
    f = next;
  }
  SurfaceMesh s;
  s.vertices.resize(Eigen::Index(v.size()), 3);
  for (std::size_t i = 0; i < v.size(); ++i) s.vertices.row(Eigen::Index(i)) = radius * v[i].transpose();
  s.faces.resize(Eigen::Index(f.size()), 3);
  for (std::size_t i = 0; i < f.size(); ++i) s.faces.row(Eigen::Index(i)) << f[i][0], f[i][1], f[i][2];
  return s;
}

/// Largest distance from a boundary vertex of `tets` to the surface `s`.
double boundary_distance_to(const TetMesh& tets, const SurfaceMesh& s) {
  double worst = 0;
  for (int v : surface_vertices(boundary_faces(tets.tets))) {
    const Vec3 p = tets.vertices.row(v).transpose();
    double best = INFINITY;
    for (int t = 0; t < s.num_faces(); ++t)
      best = std::min(best, point_triangle_distance_sq(p, s.vertices.row(s.faces(t, 0)).transpose(),
                                                       s.vertices.row(s.faces(t, 1)).transpose(),
                                                       s.vertices.row(s.faces(t, 2)).transpose()));
    worst = std::max(worst, std::sqrt(best));
  }
  return worst;
}

SurfaceMesh flipped(SurfaceMesh s) {
  s.faces.col(1).swap(s.faces.col(2));
  return s;
}

}  // namespace

TEST_CASE("a cube's tets fill the cube exactly: its corners and edges are kept", "[tetrahedralize]") {
  const SurfaceMesh cube = box_surface(Vec3(0, 0, 0), Vec3(0.1, 0.2, 0.1), 1, 2, 1);
  const TetMesh m = tetrahedralize(cube, {0.03}, "cube");
  REQUIRE_NOTHROW(validate_tet_mesh(m, "cube tets"));
  REQUIRE_NOTHROW(validate_closed_surface(boundary_faces(m.tets), m.num_vertices(), "cube tets"));
  CHECK(tet_mesh_volume(m.vertices, m.tets) == Approx(0.1 * 0.2 * 0.1).epsilon(1e-9));
  CHECK(boundary_distance_to(m, cube) < 1e-12);
  CHECK(m.num_tets() > 50);  // the size is honoured: a 0.03 tet size gives many more than 6 tets
}

TEST_CASE("a sphere's tets approximate it to within a tenth of the size", "[tetrahedralize]") {
  const SurfaceMesh sphere = sphere_surface(0.05, 3);
  const double size = 0.01;
  const TetMesh m = tetrahedralize(sphere, {size}, "sphere");
  REQUIRE_NOTHROW(validate_tet_mesh(m, "sphere tets"));
  CHECK(boundary_distance_to(m, sphere) <= size / 10);
  // Every boundary point within size / 10 of the surface: the volumes differ by at most area * size / 10.
  double area = 0;
  for (int t = 0; t < sphere.num_faces(); ++t) {
    const Vec3 a = sphere.vertices.row(sphere.faces(t, 0)), b = sphere.vertices.row(sphere.faces(t, 1)),
               c = sphere.vertices.row(sphere.faces(t, 2));
    area += (b - a).cross(c - a).norm() / 2;
  }
  const double volume = tet_mesh_volume(m.vertices, m.tets), input = enclosed_volume(sphere.vertices, sphere.faces);
  CHECK(std::abs(volume - input) <= area * size / 10);
  CHECK(std::abs(volume - input) > 0);  // not the input's own vertices: the surface is remeshed at the size
}

TEST_CASE("tetrahedralizing is deterministic and ignores the surface's orientation", "[tetrahedralize]") {
  const SurfaceMesh sphere = sphere_surface(0.05, 2);
  const TetMesh a = tetrahedralize(sphere, {0.02}, "sphere");
  const TetMesh b = tetrahedralize(sphere, {0.02}, "sphere");
  CHECK(a.vertices == b.vertices);
  CHECK(a.tets == b.tets);
  const TetMesh inward = tetrahedralize(flipped(sphere), {0.02}, "inward sphere");
  REQUIRE_NOTHROW(validate_tet_mesh(inward, "inward sphere tets"));
  CHECK(tet_mesh_volume(inward.vertices, inward.tets) == Approx(tet_mesh_volume(a.vertices, a.tets)).epsilon(1e-9));
}

TEST_CASE("surfaces that bound no volume are refused with the problem named", "[tetrahedralize][errors]") {
  SurfaceMesh open = box_surface(Vec3(0, 0, 0), Vec3(1, 1, 1));
  open.faces.conservativeResize(open.faces.rows() - 1, 3);
  CHECK_THROWS_WITH(tetrahedralize(open, {0.2}, "open.stl"), Catch::Contains("open.stl: edge") &&
                                                                 Catch::Contains("the surface is open"));

  // Two overlapping cubes in one surface: closed and manifold, but crossing itself.
  const SurfaceMesh a = box_surface(Vec3(0, 0, 0), Vec3(1, 1, 1)), b = box_surface(Vec3(0.5, 0.5, 0.5), Vec3(2, 2, 2));
  SurfaceMesh both;
  both.vertices.resize(a.num_vertices() + b.num_vertices(), 3);
  both.vertices << a.vertices, b.vertices;
  both.faces.resize(a.num_faces() + b.num_faces(), 3);
  both.faces << a.faces, (b.faces.array() + a.num_vertices()).matrix();
  CHECK_THROWS_WITH(tetrahedralize(both, {0.2}, "crossed.ply"),
                    Catch::Contains("crossed.ply: the surface intersects itself: triangles"));
  CHECK_THROWS_WITH(tetrahedralize(a, {0}, "cube.obj"), Catch::Contains("cube.obj: the tet size must be positive"));
}

TEST_CASE("a surface file's tets are cached beside it and made anew when it changes", "[tetrahedralize]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("eipc_tetrahedralize_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string obj = (dir / "pad.obj").string();
  write_obj(obj, box_surface(Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.1)));

  const TetrahedralizedFile first = tetrahedralize_file(obj, 0.04);
  CHECK_FALSE(first.from_cache);
  REQUIRE(fs::exists(first.cache_path));
  CHECK(fs::path(first.cache_path).parent_path() == dir);
  const TetMesh cached = read_msh(first.cache_path);
  CHECK(cached.tets == first.mesh.tets);
  CHECK(cached.vertices == first.mesh.vertices);  // 17 digits: the same doubles

  const TetrahedralizedFile again = tetrahedralize_file(obj, 0.04);
  CHECK(again.from_cache);
  CHECK(again.cache_path == first.cache_path);
  CHECK(again.mesh.tets == first.mesh.tets);

  const TetrahedralizedFile other_size = tetrahedralize_file(obj, 0.05);
  CHECK_FALSE(other_size.from_cache);
  CHECK(other_size.cache_path != first.cache_path);

  write_obj(obj, box_surface(Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.12)));  // the user edits the surface
  const TetrahedralizedFile edited = tetrahedralize_file(obj, 0.04);
  CHECK_FALSE(edited.from_cache);
  CHECK(tet_mesh_volume(edited.mesh.vertices, edited.mesh.tets) == Approx(0.1 * 0.1 * 0.12).epsilon(1e-9));
  const TetrahedralizedFile by_default = tetrahedralize_file(obj, std::nullopt);
  CHECK(by_default.size == Approx(std::sqrt(0.1 * 0.1 * 2 + 0.12 * 0.12) / 20));
  fs::remove_all(dir);
}
