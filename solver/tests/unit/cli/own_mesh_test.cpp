// What a new user's own scene trips over (issue 62): a soft body given as the surface
// they have (binary STL), a body starting inside the barrier's reach, a material on a
// kinematic body.
#include "cli_test_helpers.hpp"
#include "eipc/io/trajectory_file.hpp"
#include "eipc/mesh/read_msh.hpp"
#include "eipc/mesh/volume.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <regex>

using namespace eipc;
using namespace eipc::test;

namespace {

/// Binary STL, as CAD tools export it: every triangle with its own three corners.
void write_binary_stl(const fs::path& path, const SurfaceMesh& s) {
  std::ofstream out(path, std::ios::binary);
  const std::string header(80, ' ');
  out.write(header.data(), 80);
  const std::uint32_t n = static_cast<std::uint32_t>(s.num_faces());
  out.write(reinterpret_cast<const char*>(&n), 4);
  for (int t = 0; t < s.num_faces(); ++t) {
    float values[12] = {0, 0, 0};  // the normal: readers recompute it
    for (int k = 0; k < 3; ++k)
      for (int a = 0; a < 3; ++a) values[3 + 3 * k + a] = static_cast<float>(s.vertices(s.faces(t, k), a));
    out.write(reinterpret_cast<const char*>(values), sizeof values);
    const std::uint16_t attributes = 0;
    out.write(reinterpret_cast<const char*>(&attributes), 2);
  }
}

std::string cache_path_in(const std::string& output) {
  std::smatch m;
  REQUIRE(std::regex_search(output, m, std::regex("(kept in|read from) (\\S+\\.msh)")));
  return m[2];
}

}  // namespace

TEST_CASE("a soft body given as a binary STL surface is tetrahedralized, cached beside it and simulated", "[cli]") {
  Workspace w;
  write_binary_stl(w.dir / "pad.stl", box_surface(Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.1), 2, 2, 2));
  const std::string scene = w.scene() + " --set bodies.0.mesh=pad.stl --set bodies.0.tet_size=0.04";
  const Result first = run_eipc("run " + scene + " --out " + (w.dir / "a.h5").string());
  INFO(first.output);
  REQUIRE(first.code == 0);
  CHECK_THAT(first.output, Catch::Contains("note: body 'a': ") && Catch::Contains("pad.stl tetrahedralized (tet size 0.04)"));
  const std::string cache = cache_path_in(first.output);
  CHECK(fs::path(cache).parent_path() == w.dir);
  const TetMesh tets = read_msh(cache);
  CHECK(tet_mesh_volume(tets.vertices, tets.tets) == Approx(1e-3).epsilon(1e-6));  // float corners: 1e-7 relative

  const Trajectory run = read_trajectory((w.dir / "a.h5").string());
  REQUIRE(run.status == TrajectoryStatus::complete);
  CHECK(run.header.bodies.at(0).tets.rows() == tets.num_tets());

  const Result second = run_eipc("run " + scene + " --out " + (w.dir / "b.h5").string());
  INFO(second.output);
  REQUIRE(second.code == 0);
  CHECK_THAT(second.output, Catch::Contains("read from " + cache));
  CHECK(read_trajectory((w.dir / "b.h5").string()).frames.back().positions ==
        run.frames.back().positions);  // the same tets give the same run
}

TEST_CASE("surfaces that cannot be tetrahedralized and misplaced fields exit 2 naming scene and field", "[cli]") {
  Workspace w;
  SurfaceMesh open = box_surface(Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.1));
  open.faces.conservativeResize(open.faces.rows() - 2, 3);
  write_binary_stl(w.dir / "open.stl", open);
  const Result r = run_eipc("run " + w.scene() + " --set bodies.0.mesh=open.stl");
  INFO(r.output);
  CHECK(r.code == 2);
  CHECK_THAT(r.output, Catch::Contains("scene.json: field 'bodies[0].mesh': ") && Catch::Contains("open.stl: edge") &&
                           Catch::Contains("the surface is open"));

  w.write("pad.off", "OFF\n");
  const Result off = run_eipc("run " + w.scene() + " --set bodies.0.mesh=pad.off");
  INFO(off.output);
  CHECK(off.code == 2);
  CHECK_THAT(off.output, Catch::Contains("field 'bodies[0].mesh': unknown mesh file extension '.off'") &&
                             Catch::Contains("a closed surface (.obj, .stl, .ply, .vtp), which is tetrahedralized"));

  const Result size = run_eipc("run " + w.scene() + " --set bodies.0.tet_size=0.01");
  INFO(size.output);
  CHECK(size.code == 2);
  CHECK_THAT(size.output, Catch::Contains("field 'bodies[0].tet_size': only a soft body given as a surface mesh"));

  const Result kinematic = run_eipc("run " + w.scene() + " --set bodies.0.kinematic=true");
  INFO(kinematic.output);
  CHECK(kinematic.code == 2);
  CHECK_THAT(kinematic.output, Catch::Contains("field 'bodies[0].material': a kinematic body follows its motion"));
}

TEST_CASE("a body starting within dhat of the ground or another body is warned of", "[cli]") {
  Workspace w;
  const Result apart = run_eipc("run " + w.scene() + " --out " + (w.dir / "apart.h5").string());
  INFO(apart.output);
  REQUIRE(apart.code == 0);
  CHECK_THAT(apart.output, !Catch::Contains("warning:"));

  // 0.5 mm above the ground, inside the default dhat of 1 mm (as issue 62's torus).
  const Result low = run_eipc("run " + w.scene() + " --set bodies.0.transform.translation=[0,0,0.0005] --out " +
                              (w.dir / "low.h5").string());
  INFO(low.output);
  REQUIRE(low.code == 0);
  CHECK_THAT(low.output, Catch::Contains("warning: ") && Catch::Contains("'a' and the ground start 0.0005 m apart") &&
                             Catch::Contains("dhat = 0.001 m"));

  // Body b 0.4 mm beside a, both well above the ground.
  const Result close = run_eipc("run " + w.scene("", "", "[0.1004, 0, 0.01]") + " --out " + (w.dir / "close.h5").string());
  INFO(close.output);
  REQUIRE(close.code == 0);
  CHECK_THAT(close.output, Catch::Contains("'a' and 'b' start 0.0004 m apart"));
}

TEST_CASE("eipc embed makes a flat sheet's coarse surface, and the sheet runs embedded on it", "[cli]") {
  Workspace w;
  const std::string sheet = (w.dir / "sheet.obj").string();  // a 10 cm square of 20 x 20 cells
  write_obj(sheet, grid_surface(20, 20, 0.1, 0.1, Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY()));
  const std::string coarse = (w.dir / "sheet_coarse.obj").string();
  const Result made = run_eipc("embed " + sheet + " --vertices 50 --out " + coarse);
  INFO(made.output);
  REQUIRE(made.code == 0);
  CHECK_THAT(made.output, Catch::Contains("shell embedding:") && Catch::Contains("441 vertices"));
  const std::string scene = w.write("sheet.json", R"({"format": "eipc-scene", "version": 1, "name": "sheet",
    "duration": 0.02, "dt": 0.01, "ground": {"height": 0.0},
    "bodies": [{"name": "sheet", "mesh": ")" + sheet + R"(", "embedding": "coarse",
      "embeddings": {"coarse": ")" + coarse + R"("},
      "material": {"model": "stvk_shell", "thickness": 0.001, "youngs": 1e5, "poisson": 0.3, "density": 500},
      "transform": {"translation": [0, 0, 0.002]}}]})");
  const Result ran = run_eipc("run " + scene + " --out " + (w.dir / "sheet.h5").string());
  INFO(ran.output);
  CHECK(ran.code == 0);
  const Result wrong = run_eipc("embed " + sheet + " --vertices 50 --out " + (w.dir / "c.stl").string());
  CHECK(wrong.code == 2);
  CHECK_THAT(wrong.output, Catch::Contains(".msh") && Catch::Contains(".obj"));
}
