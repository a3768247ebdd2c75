#include "sweep_plan_file.hpp"

#include "child_process.hpp"

#include "eipc/common.hpp"
#include "sweep_records.hpp"

#include <nlohmann/json.hpp>

namespace eipc::cli {
namespace {

using nlohmann::json;

template <class T>
json optional_json(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

template <class T>
std::optional<T> optional_from(const json& j, const char* key) {
  if (!j.contains(key) || j[key].is_null()) return std::nullopt;
  return j[key].get<T>();
}

json run_json(const SweepRun& r) {
  return {{"kind", r.kind == RunKind::reference ? "reference" : "run"},
          {"name", r.name},
          {"scenario", r.scenario},
          {"embedding", r.embedding},
          {"engine", r.engine},
          {"program", r.program},
          {"dt", r.dt},
          {"trajectory", r.trajectory()},
          {"scene_hash", r.scene_hash},
          {"command", r.command}};
}

}  // namespace

std::string plan_file_path(const std::string& dir) { return dir + "/sweep-plan.json"; }

void write_plan_file(const SweepOptions& o, const std::vector<SweepRun>& runs) {
  json plan = {{"format", "eipc-sweep-plan"},
               {"version", 1},
               {"options",
                {{"scene", o.scene},
                 {"out", o.out},
                 {"dt", o.dts},
                 {"embedding", o.embeddings},
                 {"engine", o.engines},
                 {"duration", optional_json(o.duration)},
                 {"set", o.set},
                 {"peer_config", o.peer_config},
                 {"reference", optional_json(o.reference)},
                 {"reference_dt", optional_json(o.reference_dt)},
                 {"no_certify", o.no_certify},
                 {"continuous", o.continuous}}},
               {"runs", json::array()}};
  for (const SweepRun& r : runs) plan["runs"].push_back(run_json(r));
  write_file_atomically(plan_file_path(o.out), plan.dump(2) + "\n");
}

LoadedPlan read_plan_file(const std::string& dir) {
  const std::string path = plan_file_path(dir);
  const json plan = read_json_file(path);
  if (plan.is_discarded() || !plan.is_object() || plan.value("format", "") != "eipc-sweep-plan" ||
      !plan.contains("options") || !plan.contains("runs"))
    throw InputError(path + ": missing or not a sweep plan (written by eipc sweep)");
  LoadedPlan loaded;
  SweepOptions& o = loaded.options;
  try {
    const json& j = plan["options"];
    o.scene = j.at("scene").get<std::string>();
    o.out = j.at("out").get<std::string>();
    o.dts = j.at("dt").get<std::vector<double>>();
    o.embeddings = j.at("embedding").get<std::vector<std::string>>();
    o.engines = j.at("engine").get<std::vector<std::string>>();
    o.duration = optional_from<double>(j, "duration");
    o.set = j.at("set").get<std::vector<std::string>>();
    o.peer_config = j.value("peer_config", "");  // plans from before it: the drivers' defaults
    o.reference = optional_from<std::string>(j, "reference");
    o.reference_dt = optional_from<double>(j, "reference_dt");
    o.no_certify = j.at("no_certify").get<bool>();
    o.continuous = j.at("continuous").get<bool>();
  } catch (const json::exception& e) {
    throw InputError(path + ": field 'options': " + e.what());
  }
  loaded.runs = plan_sweep(o, self_executable());
  const json& written = plan["runs"];
  bool same = written.is_array() && written.size() == loaded.runs.size();
  for (std::size_t i = 0; same && i < loaded.runs.size(); ++i) same = written[i] == run_json(loaded.runs[i]);
  if (!same)
    throw InputError(path + ": the runs planned now differ from the written ones (the scene file " + o.scene +
                     " or a reference changed since the sweep was started); start the sweep again");
  return loaded;
}

std::vector<std::string> planned_run_names(const std::string& dir) {
  const json plan = read_json_file(plan_file_path(dir));
  std::vector<std::string> names;
  if (plan.is_object() && plan.contains("runs") && plan["runs"].is_array())
    for (const json& r : plan["runs"]) names.push_back(r.value("trajectory", ""));
  return names;
}

}  // namespace eipc::cli
