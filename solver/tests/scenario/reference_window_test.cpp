// Re-runs the first `window` seconds of committed reference trajectories with the command
// their manifest records and requires the same motion (E against the reference, matched
// by step index). Catches solver changes that alter results, and references that no
// longer belong to their scene. Regenerate with reference/make (see reference/README.md).
#include "eipc/analysis/trajectory_error.hpp"
#include "eipc/io/trajectory_file.hpp"

#include <catch2/catch.hpp>
#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace eipc;
namespace fs = std::filesystem;

namespace {

const fs::path repo_root = fs::path(EIPC_TEST_DATA).parent_path().parent_path().parent_path();

/// Far below any time-step error (mm), far above round-off of the same computation.
constexpr double match_tolerance = 1e-6;  // m

std::string command_output(const std::string& cmd, int& code) {
  FILE* pipe = popen((cmd + " 2>&1").c_str(), "r");
  REQUIRE(pipe);
  std::string out;
  char buf[4096];
  while (std::size_t n = fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  const int status = pclose(pipe);
  code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }

/// The manifest entry's run, cut to `window` seconds, must reproduce the reference's frames.
/// A peer engine's entry (reference/make --engine) is re-run by its driver beside eipc, with
/// its settings file; skipped (with a warning) when the driver cannot run here.
void check_reference_window(const fs::path& manifest_path, const std::string& key, double window) {
  INFO("reference " << manifest_path.string() << " [" << key << "]");
  const nlohmann::json manifest = nlohmann::json::parse(std::ifstream(manifest_path));
  REQUIRE(manifest["entries"].contains(key));
  const nlohmann::json& entry = manifest["entries"][key];
  const std::string embedding = entry.value("embedding", key);
  const std::string engine = entry.value("engine", std::string("eipc"));
  const fs::path reference = manifest_path.parent_path() / entry["file"].get<std::string>();
  const fs::path scene = repo_root / entry["scene"].get<std::string>();

  int code = 0;
  const std::string sha = command_output("sha256sum " + quoted(scene.string()), code).substr(0, 64);
  REQUIRE(code == 0);
  INFO("the scene changed since the reference was made: regenerate it (reference/README.md)");
  REQUIRE(sha == entry["scene_sha256"].get<std::string>());

  const double every = entry["output_every"].get<double>();
  const fs::path out = fs::temp_directory_path() / fmt::format("eipc_refwin_{}_{}.h5", ::getpid(), key);
  std::string runner = std::string(EIPC_BINARY) + " run";
  if (engine != "eipc") {
    const fs::path driver = fs::path(EIPC_BINARY).parent_path() / ("eipc-" + engine);
    if (engine == "drake") {
      command_output(quoted(driver.string()) + " --which-python", code);
      if (code != 0) {
        WARN("not checked: " << driver.string() << " cannot run here (no pydrake)");
        return;
      }
    }
    runner = quoted(driver.string());
    const fs::path settings =
        repo_root / "scenarios" / "peers" / (engine + "_" + manifest["scenario"].get<std::string>() + ".toml");
    if (fs::exists(settings)) runner += " --config " + quoted(settings.string());
  }
  std::string cmd = fmt::format("{} {} --dt {} --embedding {} --set output.every={} --duration {} --out {}", runner,
                                quoted(scene.string()), entry["dt"].get<double>(), quoted(embedding), every, window,
                                quoted(out.string()));
  for (const auto& s : entry["set"]) cmd += " --set " + quoted(s.get<std::string>());
  const std::string log = command_output(cmd, code);
  INFO(cmd << "\n" << log);
  REQUIRE(code == 0);

  const TrajectoryError e = trajectory_error(out.string(), reference.string());
  fs::remove(out);
  fs::remove(trajectory_xdmf_path(out.string()));
  fs::remove(trajectory_xdmf_path(out.string(), XdmfFlavour::legacy));
  INFO("E against the reference over " << e.frames << " frames: " << e.error << " m");
  CHECK(e.step_ratio == 1);
  CHECK(e.frames == std::lround(window / every));
  CHECK(e.error <= match_tolerance);
}

}  // namespace

TEST_CASE("a short window of the committed test reference is reproduced", "[scenario][reference]") {
  // solver/tests/data/reference/README.md: how cube_drop/full.h5 was made. The cubes
  // touch at about 0.055 s, so the window includes contact and friction.
  check_reference_window(fs::path(EIPC_TEST_DATA) / "reference" / "cube_drop" / "manifest.json", "full", 0.08);
}

TEST_CASE("a short window of every committed reference is reproduced", "[scenario][reference]") {
  // Every reference/<scenario>/manifest.json entry; 0.02 s keeps the fine-step re-runs cheap.
  int checked = 0;
  const fs::path dir = repo_root / "reference";
  if (fs::is_directory(dir))
    for (const auto& scenario : fs::directory_iterator(dir)) {
      const fs::path manifest = scenario.path() / "manifest.json";
      if (!fs::exists(manifest)) continue;
      // Keep the parsed manifest alive: items() refers into it.
      const nlohmann::json parsed = nlohmann::json::parse(std::ifstream(manifest));
      for (const auto& [key, entry] : parsed["entries"].items()) {
        if (!fs::exists(scenario.path() / entry["file"].get<std::string>())) continue;  // listed, not committed
        check_reference_window(manifest, key, 0.02);
        ++checked;
      }
    }
  if (checked == 0) WARN("no references committed under " << dir.string());
}
