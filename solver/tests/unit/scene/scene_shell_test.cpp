// Shell bodies in scene files (material "stvk_shell"): a surface mesh loads as a
// shell with its thickness; the fields a shell cannot use are refused by name.
#include "scene_dir.hpp"

#include "eipc/simulation/simulation.hpp"

#include <catch2/catch.hpp>
#include <fstream>

using namespace eipc;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {
json sheet_scene() {
  return json::parse(R"({"format": "eipc-scene", "version": 1, "duration": 0.02, "dt": 0.01,
    "bodies": [{"name": "sheet", "mesh": "sheet.obj",
                "material": {"model": "stvk_shell", "thickness": 0.002, "youngs": 1e5, "poisson": 0.3, "density": 500}}]})");
}
}  // namespace

TEST_CASE("a stvk_shell body is its surface, with its thickness", "[scene][shell]") {
  test::SceneDir d("scene_shell");
  // Two triangles of a unit square, and a vertex in no triangle for the refusal below.
  std::ofstream((d.dir / "sheet.obj").string()) << "v 0 0 0.1\nv 1 0 0.1\nv 1 1 0.1\nv 0 1 0.1\nf 1 2 3\nf 1 3 4\n";
  std::ofstream((d.dir / "loose.obj").string()) << "v 0 0 0.1\nv 1 0 0.1\nv 1 1 0.1\nv 0 1 0.1\nv 5 5 5\nf 1 2 3\nf 1 3 4\n";
  const json good = sheet_scene();
  const Scene scene = load_scene(d.write(good.dump()), {});
  REQUIRE(scene.bodies.size() == 1);
  CHECK(scene.bodies[0].shell_thickness == 0.002);
  CHECK(scene.bodies[0].surface.rows() == 2);
  CHECK(scene.bodies[0].fine_tets.rows() == 0);

  json no_thickness = good;
  no_thickness["bodies"][0]["material"].erase("thickness");
  CHECK_THAT(d.error_of(no_thickness.dump()), Contains("bodies[0].material") && Contains("thickness"));
  json tets = good;
  tets["bodies"][0]["mesh"] = "cube.msh";
  CHECK_THAT(d.error_of(tets.dump()), Contains("bodies[0].mesh") && Contains("triangle surface"));
  json sized = good;
  sized["bodies"][0]["tet_size"] = 0.01;
  CHECK_THAT(d.error_of(sized.dump()), Contains("bodies[0].tet_size"));
  json damped = good;
  damped["bodies"][0]["material"]["rayleigh_beta"] = 0.01;
  CHECK_THAT(d.error_of(damped.dump()), Contains("bodies[0].material.rayleigh_beta"));
  json loose = good;
  loose["bodies"][0]["mesh"] = "loose.obj";
  CHECK_THAT(d.error_of(loose.dump()), Contains("vertex 4 is in no triangle"));
  // A solid's material has no thickness.
  json solid = good;
  solid["bodies"][0]["mesh"] = "cube.msh";
  solid["bodies"][0]["material"]["model"] = "neo_hookean";
  CHECK_THAT(d.error_of(solid.dump()), Contains("bodies[0].material.thickness"));
}

TEST_CASE("a shell's embedding is a coarse triangle surface; other embeddings are refused by name",
          "[scene][shell][embedding]") {
  test::SceneDir d("scene_shell_embedding");
  // The fine sheet: the unit square at z = 0.1 in 3 x 3 cells; the coarse one: its two triangles.
  std::ofstream fine((d.dir / "fine.obj").string());
  for (int j = 0; j <= 3; ++j)
    for (int i = 0; i <= 3; ++i) fine << "v " << i / 3.0 << " " << j / 3.0 << " 0.1\n";
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) {
      const int a = 1 + i + 4 * j;
      fine << "f " << a << " " << a + 1 << " " << a + 5 << "\nf " << a << " " << a + 5 << " " << a + 4 << "\n";
    }
  fine.close();
  std::ofstream((d.dir / "coarse.obj").string()) << "v 0 0 0.1\nv 1 0 0.1\nv 1 1 0.1\nv 0 1 0.1\nf 1 2 3\nf 1 3 4\n";
  std::ofstream((d.dir / "tilted.obj").string()) << "v 0 0 0.1\nv 1 0 0.2\nv 1 1 0.2\nv 0 1 0.1\nf 1 2 3\nf 1 3 4\n";
  json doc = sheet_scene();
  doc["bodies"][0]["mesh"] = "fine.obj";
  doc["bodies"][0]["embeddings"] = {{"coarse", "coarse.obj"}, {"tilted", "tilted.obj"}, {"tets", "cube.msh"},
                                    {"solid", {{"mesh", "coarse.obj"}, {"coarsened_stiffness", true}}}};
  doc["bodies"][0]["embedding"] = "coarse";
  const Body sheet = load_scene(d.write(doc.dump()), {}).bodies[0];
  CHECK(sheet.num_nodes() == 4);
  CHECK(sheet.shell_elements.rows() == 2);
  CHECK(sheet.surface.rows() == 18);  // contact on the fine sheet
  CHECK(sheet.embedding == "coarse");
  doc["bodies"][0]["embedding"] = "tilted";
  CHECK_THAT(d.error_of(doc.dump()), Contains("field 'bodies[0].embeddings.tilted'") &&
                                         Contains("is not on the coarse surface"));
  doc["bodies"][0]["embedding"] = "tets";
  CHECK_THAT(d.error_of(doc.dump()), Contains("field 'bodies[0].embeddings.tets'") && Contains("triangle surface"));
  doc["bodies"][0]["embedding"] = "solid";
  CHECK_THAT(d.error_of(doc.dump()), Contains("field 'bodies[0].embeddings.solid'") && Contains("the path of a coarse"));
  doc["bodies"][0]["embedding"] = "affine";
  doc["bodies"][0]["embeddings"]["affine"] = "affine";
  CHECK_THAT(d.error_of(doc.dump()), Contains("field 'bodies[0].embedding'") && Contains("\"affine\" has none"));
}

TEST_CASE("a shell starting within its contact offset of the ground is refused", "[scene][shell]") {
  test::SceneDir d("scene_shell_offset");
  std::ofstream((d.dir / "sheet.obj").string()) << "v 0 0 0.1\nv 1 0 0.1\nv 1 1 0.1\nv 0 1 0.1\nf 1 2 3\nf 1 3 4\n";
  // 2 mm thick: its offset to the ground is 1 mm. 1.5 mm above it starts clear (a
  // warning: within dhat of its offset); 0.5 mm above it, the mid-surface clear
  // of the ground, starts within the offset.
  json clear = sheet_scene();
  clear["ground"] = {{"height", 0.0985}};
  CHECK_NOTHROW(Simulation(load_scene(d.write(clear.dump()), {})));
  json within = sheet_scene();
  within["ground"] = {{"height", 0.0995}};
  CHECK_THROWS_WITH(Simulation(load_scene(d.write(within.dump()), {})), Contains("within its contact offset"));
}

TEST_CASE("a shell whose cells are finer than its thickness plus dhat is warned about", "[scene][shell]") {
  test::SceneDir d("scene_shell_fine_cells");
  // 2.5 mm cells: a vertex and the triangle across a cell's diagonal are 1.77 mm apart.
  std::ofstream grid((d.dir / "fine.obj").string());
  for (int j = 0; j <= 8; ++j)
    for (int i = 0; i <= 8; ++i) grid << "v " << 0.0025 * i << " " << 0.0025 * j << " 0.1\n";
  for (int j = 0; j < 8; ++j)
    for (int i = 0; i < 8; ++i) {
      const int a = 1 + i + 9 * j;
      grid << "f " << a << " " << a + 1 << " " << a + 10 << "\nf " << a << " " << a + 10 << " " << a + 9 << "\n";
    }
  grid.close();
  json doc = sheet_scene();
  doc["bodies"][0]["mesh"] = "fine.obj";
  doc["contact"] = {{"dhat", 1e-3}};
  doc["bodies"][0]["material"]["thickness"] = 1e-3;  // offset 1 mm + dhat 1 mm > 1.77 mm
  const Simulation thick(load_scene(d.write(doc.dump()), {}));
  REQUIRE(thick.warnings().size() == 1);
  CHECK_THAT(thick.warnings()[0], Contains("two primitives of one body start") && Contains("within the barrier's reach"));
  doc["bodies"][0]["material"]["thickness"] = 5e-4;  // 0.5 mm + 1 mm < 1.77 mm
  CHECK(Simulation(load_scene(d.write(doc.dump()), {})).warnings().empty());
}
