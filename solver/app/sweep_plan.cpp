#include "sweep_plan.hpp"

#include "eipc/common.hpp"
#include "eipc/scene/scene.hpp"
#include "eipc/util/file_bytes.hpp"
#include "eipc/util/fnv1a.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace eipc::cli {
namespace {

/// File-name-safe form of a scenario or embedding name.
std::string file_safe(const std::string& s) {
  std::string out = s;
  for (char& c : out)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.')) c = '_';
  return out;
}

/// A peer engine's driver: eipc-<engine> beside the eipc binary (docs/peers.md).
std::string peer_program(const std::string& engine, const std::string& eipc_executable) {
  const std::string program = (std::filesystem::path(eipc_executable).parent_path() / ("eipc-" + engine)).string();
  if (engine.empty() || !std::filesystem::exists(program))
    throw InputError("--engine " + engine + ": no peer binary " + program +
                     " (peers are built only where their Debian package is installed, see docs/peers.md)");
  return program;
}

}  // namespace

std::string exact_number(double x) { return fmt::format("{}", x); }

std::string scenario_name(const std::string& scene, const std::vector<std::string>& set) {
  nlohmann::json doc = nlohmann::json::parse(read_file_bytes(scene, "scene file"), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) throw InputError(scene + ": not a JSON object");
  for (const std::string& s : set) apply_override(doc, s);
  if (doc.contains("name") && doc["name"].is_string()) return doc["name"].get<std::string>();
  return std::filesystem::path(scene).stem().string();
}

std::string peer_settings_file(const std::string& dir, const std::string& engine, const std::string& scenario) {
  if (dir.empty()) return "";
  const std::filesystem::path file = std::filesystem::path(dir) / (engine + "_" + scenario + ".toml");
  return std::filesystem::is_regular_file(file) ? std::filesystem::absolute(file).string() : "";
}

std::vector<SweepRun> plan_sweep(const SweepOptions& o, const std::string& eipc_executable) {
  if (o.dts.empty()) throw InputError("--dt: give at least one time step");
  if (o.embeddings.empty()) throw InputError("--embedding: give at least one embedding");
  if (o.engines.empty()) throw InputError("--engine: give at least one engine");
  if (!o.peer_config.empty() && !std::filesystem::is_directory(o.peer_config))
    throw InputError("--peer-config " + o.peer_config + ": not a directory");
  for (double dt : o.dts)
    if (!(dt > 0)) throw InputError("--dt: time steps must be positive (got " + exact_number(dt) + ")");
  const std::string scenario = scenario_name(o.scene, o.set);
  const std::string hash = fnv1a_hex(read_file_bytes(o.scene, "scene file"));
  if (o.reference_dt && !o.reference) throw InputError("--reference-dt: needs --reference DIR");
  if (o.reference_dt && !(*o.reference_dt > 0))
    throw InputError("--reference-dt: must be positive (got " + exact_number(*o.reference_dt) + ")");
  std::vector<SweepRun> runs;
  const auto add = [&](RunKind kind, const std::string& engine, const std::string& program,
                       const std::string& embedding, double dt, std::string name, std::string dir) {
    SweepRun r;
    r.kind = kind;
    r.scenario = scenario;
    r.embedding = embedding;
    r.engine = engine;
    r.program = program;
    r.dt = dt;
    r.name = std::move(name);
    r.dir = std::move(dir);
    r.scene_hash = hash;
    r.command = {o.scene, "--dt", exact_number(dt), "--embedding", embedding, "--threads", "1", "--json",
                 "--out", r.trajectory()};
    if (engine == "eipc") r.command.insert(r.command.begin(), "run");
    // The peer's settings for this scene as the analysis scripts pass them; the sweep's own
    // options follow and win (the drivers' --config gives way to the command line).
    const std::string settings = engine == "eipc" ? "" : peer_settings_file(o.peer_config, engine, scenario);
    if (!settings.empty()) r.command.insert(r.command.begin() + 1, {"--config", settings});
    if (o.duration) r.command.insert(r.command.end(), {"--duration", exact_number(*o.duration)});
    for (const std::string& s : o.set) r.command.insert(r.command.end(), {"--set", s});
    for (const SweepRun& other : runs)
      if (other.trajectory() == r.trajectory())
        throw InputError("--dt/--embedding/--engine: run " + r.name + " is listed twice");
    runs.push_back(std::move(r));
  };
  for (const std::string& embedding : o.embeddings)
    if (embedding.empty()) throw InputError("--embedding: empty name in the list");
  if (o.reference_dt) {
    // The same directory as runs.csv's error column reads: REF/<scenario>/<embedding>.h5.
    const std::string dir = (std::filesystem::path(*o.reference) / scenario).string();
    for (const std::string& embedding : o.embeddings) {
      // A sweep's task writes <E>.attempt.json before anything else and its record <E>.json
      // last, so the answer stays the same while a task makes the file (tasks plan again).
      const std::string file = dir + "/" + embedding;
      const bool made_by_a_sweep =
          std::filesystem::exists(file + ".attempt.json") || std::filesystem::exists(file + ".json");
      if (!std::filesystem::exists(file + ".h5") || made_by_a_sweep)
        add(RunKind::reference, "eipc", "", embedding, *o.reference_dt, embedding, dir);
    }
  }
  for (const std::string& engine : o.engines) {
    const std::string program = engine == "eipc" ? "" : peer_program(engine, eipc_executable);
    for (const std::string& embedding : o.embeddings)
      for (double dt : o.dts)
        add(RunKind::run, engine, program, embedding, dt,
            file_safe(scenario) + (engine == "eipc" ? "" : "_" + file_safe(engine)) + "_" + file_safe(embedding) +
                "_dt" + exact_number(dt),
            o.out);
  }
  return runs;
}

}  // namespace eipc::cli
