// Every committed scene file loads (the scene format refuses unknown fields, so a
// committed scene with one would fail for every user), and the documented example
// of docs/scene-format.md runs and stays intersection free.
#include "eipc/scene/scene.hpp"
#include "eipc/simulation/simulation.hpp"
#include "scene_builders.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

using namespace eipc;
namespace fs = std::filesystem;

namespace {

const fs::path kScenarios = fs::path(EIPC_ASSETS).parent_path();

}  // namespace

TEST_CASE("every committed scene file loads", "[scenario][scene]") {
  int loaded = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kScenarios)) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    const nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
    if (!doc.is_object() || doc.value("format", "") != "eipc-scene") continue;
    INFO(entry.path().string());
    try {
      load_scene(entry.path().string());
      ++loaded;
    } catch (const InputError& e) {
      // Meshes made by scenarios/generators/make_assets are not committed; every field
      // before the first body's mesh has been checked by then.
      const std::string message = e.what();
      const bool generated = message.find("no such file") != std::string::npos &&
                             message.find("assets/generated/") != std::string::npos;
      if (!generated) FAIL_CHECK(message);
    }
  }
  CHECK(loaded >= 7);
}

TEST_CASE("the example scene of docs/scene-format.md squeezes the cube without intersection", "[scenario][scene]") {
  Scene scene = load_scene((kScenarios / "examples" / "soft_cube_squeeze.json").string(), {std::nullopt, 0.3});
  Simulation sim(std::move(scene), 0);
  const RunSummary& summary = sim.run();
  CHECK_FALSE(summary.failed);
  CHECK(test::intersection_free(sim.stepper()));
  // By t = 0.3 s each plate has moved 3 mm in; the cube, 4 cm wide, is squeezed.
  const Positions cube = sim.stepper().fine_positions()[0];
  const double width = cube.col(0).maxCoeff() - cube.col(0).minCoeff();
  INFO("cube width at 0.3 s: " << width);
  CHECK(width < 0.0395);
}

TEST_CASE("the shell example scene drapes the sheet over the table without intersection", "[scenario][scene][shell]") {
  Scene scene = load_scene((kScenarios / "examples" / "sheet_drape.json").string(), {std::nullopt, 0.3});
  Simulation sim(std::move(scene), 0);
  const RunSummary& summary = sim.run();
  CHECK_FALSE(summary.failed);
  CHECK(test::intersection_free(sim.stepper()));
  // By t = 0.3 s the 20 cm sheet lies on the 6 cm table and its sides hang down.
  const Positions sheet = sim.stepper().fine_positions()[0];
  INFO("sheet z from " << sheet.col(2).minCoeff() << " to " << sheet.col(2).maxCoeff());
  CHECK(sheet.col(2).maxCoeff() > 0.0325);   // on the table's top (z = 0.0325), not through it
  CHECK(sheet.col(2).minCoeff() < 0.02);     // the sides have fallen well below it
}
