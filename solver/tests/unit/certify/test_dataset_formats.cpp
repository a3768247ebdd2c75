// eipc certify on datasets written by other tools: solver/tests/data/datasets/write_frames.py
// writes two frames of two cubes (apart, then intersecting) as PLY (Python's struct: both
// byte orders, float and double), STL, legacy VTK, VTK XML (VTK's writers: ascii, binary,
// appended raw and base64, zlib) and a ParaView .pvd series. Each must find the planted
// intersection in frame 1 and only there, as one body and split into components.
#include "eipc/certify/certify.hpp"
#include "eipc/mesh/surface_file.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <unistd.h>

using namespace eipc;
using namespace eipc::certify;
namespace fs = std::filesystem;

namespace {

/// The fixtures, written once per test process; empty when VTK's Python is missing.
const fs::path& fixtures() {
  static const fs::path dir = [] {
    const fs::path d = fs::temp_directory_path() / ("eipc_datasets_" + std::to_string(::getpid()));
    fs::remove_all(d);
    const std::string cmd = "/usr/bin/python3 -c 'import vtkmodules.vtkIOXML' 2>/dev/null && /usr/bin/python3 " +
                            std::string(EIPC_TEST_DATA) + "/datasets/write_frames.py " + d.string();
    return std::system(cmd.c_str()) == 0 ? d : fs::path();
  }();
  return dir;
}

nlohmann::json certify_json(const fs::path& input, BodyRule rule, int& code) {
  CertifyOptions opt;
  opt.json = true;
  opt.bodies = rule;
  std::ostringstream out, err;
  code = certify_command(input.string(), opt, out, err);
  INFO(err.str());
  REQUIRE(code != 2);
  return nlohmann::json::parse(out.str());
}

}  // namespace

TEST_CASE("datasets written by other tools: every format finds the planted intersection", "[certify][inputs]") {
  if (fixtures().empty()) {
    WARN("EIPC_TEST_SKIPPED: /usr/bin/python3 lacks VTK (python3-paraview or python3-vtk9; ci/setup-deps)");
    return;
  }
  const std::vector<std::string> sets = {"ply_ascii",       "ply_le_float",       "ply_be_double",      "stl_binary",
                                         "stl_ascii",       "vtk_polydata_ascii", "vtk_polydata_binary", "vtk_tets_binary",
                                         "vtp_default",     "vtp_raw",            "vtu_ascii",          "vtu_binary",
                                         "vtu_binary_zlib_be"};
  for (const std::string& set : sets) {
    INFO("dataset " << set);
    int code = 0;
    const auto whole = certify_json(fixtures() / set, BodyRule::objects, code);
    CHECK(code == 1);
    REQUIRE(whole["frames"].size() == 2);
    CHECK(whole["frames"][0]["ok"] == true);
    CHECK(whole["frames"][1]["ok"] == false);
    CHECK(whole["bodies"] == nlohmann::json::array({set}));

    const auto split = certify_json(fixtures() / set, BodyRule::components, code);
    CHECK(code == 1);
    // Cube A holds vertices 0..7, B 8..15 (STL numbers vertices by first appearance instead).
    REQUIRE(split["bodies"].size() == 2);
    CHECK(split["bodies"][0] == set + "@0");
    CHECK(split["frames"][0]["ok"] == true);
    REQUIRE(split["frames"][1]["pairs"].size() == 1);
    CHECK(split["frames"][1]["pairs"][0]["kind"] == "bodies");
    CHECK(split["frames"][1]["pairs"][0]["body_a"] == set + "@0");
    CHECK(split["frames"][1]["pairs"][0]["body_b"] == split["bodies"][1]);
    if (set.rfind("stl", 0) != 0) CHECK(split["bodies"][1] == set + "@8");
    // File indices: every vertex named in frame 1 is one of the file's 16.
    for (const auto& v : split["frames"][1]["examples"])
      if (v.contains("vertex")) CHECK(v["vertex"].get<int>() < 16);
    if (set.rfind("stl", 0) == 0) {
      REQUIRE(split["notes"].size() >= 1);
      CHECK(split["notes"][0].get<std::string>().find("72 corners joined into 16 vertices") != std::string::npos);
    }
  }
}

TEST_CASE("datasets written by other tools: coordinates exactly as stored", "[certify][inputs]") {
  if (fixtures().empty()) {
    WARN("EIPC_TEST_SKIPPED: /usr/bin/python3 lacks VTK (python3-paraview or python3-vtk9; ci/setup-deps)");
    return;
  }
  // Cube B's first corner is at x = 2.1 in frame 0: a float file holds 2.1f, which
  // widens exactly to 2.0999999046325684; a double file holds the double 2.1.
  auto x8 = [](const fs::path& p) { return read_surface_file(p.string()).surfaces.at(0).mesh.vertices(8, 0); };
  const double as_float = static_cast<double>(2.1f);
  CHECK(x8(fixtures() / "ply_le_float" / "frame0.ply") == as_float);
  CHECK(x8(fixtures() / "ply_be_double" / "frame0.ply") == 2.1);
  CHECK(x8(fixtures() / "ply_ascii" / "frame0.ply") == 2.1);
  CHECK(x8(fixtures() / "stl_binary" / "frame0.stl") == as_float);
  CHECK(x8(fixtures() / "vtk_tets_binary" / "frame0.vtk") == as_float);
  CHECK(x8(fixtures() / "vtu_binary_zlib_be" / "frame0.vtu") == as_float);
  CHECK(x8(fixtures() / "vtu_ascii" / "frame0.vtu") == as_float);
  CHECK(x8(fixtures() / "vtp_raw" / "frame0.vtp") == 2.1);
  CHECK(x8(fixtures() / "vtk_polydata_binary" / "frame0.vtk") == 2.1);
}

TEST_CASE("a ParaView series: its times are the frames' times", "[certify][inputs]") {
  if (fixtures().empty()) {
    WARN("EIPC_TEST_SKIPPED: /usr/bin/python3 lacks VTK (python3-paraview or python3-vtk9; ci/setup-deps)");
    return;
  }
  int code = 0;
  const auto j = certify_json(fixtures() / "series" / "cubes.pvd", BodyRule::components, code);
  CHECK(code == 1);
  REQUIRE(j["frames"].size() == 2);
  CHECK(j["frames"][1]["time"] == 0.25);
  CHECK(j["summary"]["first_intersection_time"] == 0.25);
  CHECK(j["bodies"] == nlohmann::json::array({"cubes@0", "cubes@8"}));
}
