// The readers against known meshes: the same two-tet mesh in every format, the project's
// VTK assets, an OBJ with quads and slashes, and write/read round trips.
#include <catch2/catch.hpp>

#include "eipc/mesh/read_mesh.hpp"
#include "eipc/mesh/read_obj.hpp"
#include "eipc/mesh/surface.hpp"
#include "eipc/mesh/validate.hpp"
#include "eipc/mesh/volume.hpp"
#include "eipc/mesh/write_mesh.hpp"
#include "mesh_test_util.hpp"

using namespace eipc;
using eipc::test::asset;
using eipc::test::mesh_data;

namespace {

TetMesh expected_two_tets() {
  TetMesh m;
  m.vertices.resize(5, 3);
  m.vertices << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1;
  m.tets.resize(2, 4);
  m.tets << 0, 1, 2, 3, 1, 2, 3, 4;
  return m;
}

}  // namespace

TEST_CASE("every tet format reads the same two-tet mesh", "[mesh][io]") {
  const TetMesh want = expected_two_tets();
  const char* files[] = {"two_tets_v2.msh",        "two_tets_v41.msh",      "two_tets_1based.node",
                         "two_tets_1based.ele",    "two_tets_0based.ele",   "two_tets.vtk",
                         "two_tets_v51.vtk"};
  for (const char* name : files) {
    INFO(name);
    const TetMesh m = read_tet_mesh(mesh_data(name));
    REQUIRE(m.vertices.rows() == 5);
    REQUIRE(m.tets.rows() == 2);
    CHECK(m.vertices == want.vertices);
    CHECK(m.tets == want.tets);
    CHECK(tet_mesh_volume(m.vertices, m.tets) == Approx(0.5).epsilon(1e-15));
    CHECK_NOTHROW(validate_tet_mesh(m, name));
  }
}

TEST_CASE("the two-tet mesh has the expected outward boundary", "[mesh][io]") {
  const TetMesh m = read_tet_mesh(mesh_data("two_tets_v41.msh"));
  const Tris faces = boundary_faces(m.tets);
  CHECK(faces.rows() == 6);  // 8 tet faces, the shared one (1,2,3) is interior
  CHECK(surface_vertices(faces) == std::vector<int>{0, 1, 2, 3, 4});
  CHECK_NOTHROW(validate_closed_surface(faces, 5, "two tets"));
  CHECK(enclosed_volume(m.vertices, faces) == Approx(0.5).epsilon(1e-14));
  const SurfaceMesh s = read_surface_mesh(mesh_data("two_tets_v2.msh"));
  CHECK(s.faces == faces);
  CHECK(s.vertices == m.vertices);
}

TEST_CASE("the project's VTK assets read as closed, outward, positive meshes", "[mesh][io][assets]") {
  struct Asset {
    const char* path;
    int vertices, tets, surface_vertices, surface_faces, euler;
  };
  const Asset assets[] = {
      {"drake/teddy.vtk", 410, 1207, 312, 620, 2},  // counts from scenarios/assets/README.md
      {"drake/torus.vtk", 115, 286, -1, -1, 0},     // a torus has Euler characteristic 0
      {"drake_models/wsg_50_description/bubble.vtk", 67, 212, -1, -1, 2},
  };
  for (const Asset& a : assets) {
    INFO(a.path);
    const TetMesh m = read_tet_mesh(asset(a.path));
    CHECK(m.vertices.rows() == a.vertices);
    CHECK(m.tets.rows() == a.tets);
    REQUIRE_NOTHROW(validate_tet_mesh(m, a.path));
    CHECK(unused_vertices(m).empty());
    const Tris faces = boundary_faces(m.tets);
    const std::vector<int> sv = surface_vertices(faces);
    const Edges edges = unique_edges(faces);
    if (a.surface_vertices >= 0) {
      CHECK(static_cast<int>(sv.size()) == a.surface_vertices);
      CHECK(faces.rows() == a.surface_faces);
    }
    REQUIRE_NOTHROW(validate_closed_surface(faces, m.num_vertices(), a.path));
    CHECK(static_cast<long>(sv.size()) - edges.rows() + faces.rows() == a.euler);
    const double v_tets = tet_mesh_volume(m.vertices, m.tets);
    const double v_surface = enclosed_volume(m.vertices, faces);
    CHECK(v_tets > 0);
    CHECK(v_surface == Approx(v_tets).epsilon(1e-12));  // divergence theorem: outward and closed
  }
}

TEST_CASE("OBJ with quads, slashes and negative indices", "[mesh][io]") {
  const SurfaceMesh s = read_surface_mesh(mesh_data("cube_quads.obj"));
  REQUIRE(s.vertices.rows() == 8);
  REQUIRE(s.faces.rows() == 12);  // 6 quads fan-split
  CHECK(s.vertices.row(7) == Eigen::RowVector3d(0, 1, 1));
  // Fan triangulation of "f 1/1 4/2 3/1 2/2": (0,3,2), (0,2,1).
  CHECK(s.faces.row(0) == Eigen::RowVector3i(0, 3, 2));
  CHECK(s.faces.row(1) == Eigen::RowVector3i(0, 2, 1));
  // "f -7 -6 -2 -3" after 8 vertices is "f 2 3 7 6".
  CHECK(s.faces.row(6) == Eigen::RowVector3i(1, 2, 6));
  CHECK(s.faces.row(7) == Eigen::RowVector3i(1, 6, 5));
  CHECK_NOTHROW(validate_closed_surface(s.faces, s.num_vertices(), "cube"));
  CHECK(enclosed_volume(s.vertices, s.faces) == Approx(1.0).epsilon(1e-15));
}

TEST_CASE("write_msh / read round trip is exact", "[mesh][io]") {
  const std::string dir = eipc::test::scratch_dir("roundtrip");
  TetMesh m = read_tet_mesh(asset("drake/teddy.vtk"));
  m.vertices *= 0.15;                                  // values without short decimal forms
  m.vertices.row(0) += Eigen::RowVector3d(1e-17, 0, 0);
  const std::string path = dir + "/teddy.msh";
  write_msh(path, m);
  const TetMesh back = read_tet_mesh(path);
  CHECK(back.vertices == m.vertices);
  CHECK(back.tets == m.tets);
  CHECK_FALSE(std::filesystem::exists(path + ".tmp"));

  const SurfaceMesh s = extract_surface(m);
  write_obj(dir + "/teddy.obj", s);
  const SurfaceMesh s_back = read_surface_mesh(dir + "/teddy.obj");
  CHECK(s_back.vertices == s.vertices);
  CHECK(s_back.faces == s.faces);
  std::filesystem::remove_all(dir);
}

TEST_CASE("writers report unwritable paths", "[mesh][io]") {
  const TetMesh m = read_tet_mesh(mesh_data("two_tets.vtk"));
  CHECK_THROWS_WITH(write_msh("/nonexistent_dir_eipc/x.msh", m), Catch::Contains("/nonexistent_dir_eipc/x.msh"));
  CHECK_THROWS_AS(write_obj("/nonexistent_dir_eipc/x.obj", extract_surface(m)), InputError);
}

TEST_CASE("the project's OBJ assets: the plate is closed, the textured bubble is open", "[mesh][io][assets]") {
  const SurfaceMesh plate = read_surface_mesh(asset("drake_models/dishes/plate_8in_col.obj"));
  CHECK(plate.vertices.rows() == 450);  // counts from scenarios/assets/README.md
  CHECK(plate.faces.rows() == 896);
  CHECK_NOTHROW(validate_closed_surface(plate.faces, plate.num_vertices(), "plate"));
  CHECK(enclosed_volume(plate.vertices, plate.faces) > 0);
  const SurfaceMesh bubble = read_surface_mesh(asset("drake_models/wsg_50_description/textured_bubble.obj"));
  CHECK(bubble.vertices.rows() == 305);
  CHECK_THROWS_WITH(validate_closed_surface(bubble.faces, bubble.num_vertices(), "textured_bubble.obj"),
                    Catch::Contains("the surface is open") && Catch::Contains("46 such in total"));
}
