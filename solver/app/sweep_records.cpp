#include "sweep_records.hpp"

#include "eipc/io/trajectory_reader.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace eipc::cli {

using nlohmann::json;

json read_json_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return json(json::value_t::discarded);
  return json::parse(in, nullptr, false);
}

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << text;
    if (!out.flush()) throw std::runtime_error("cannot write " + tmp);
  }
  std::filesystem::rename(tmp, path);
}

std::string file_tail(const std::string& path, std::size_t max_chars) {
  std::ifstream in(path, std::ios::binary);
  std::string s{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return s.size() > max_chars ? s.substr(s.size() - max_chars) : s;
}

json run_parameters(const SweepRun& run, const SweepOptions& options) {
  json p = {{"dt", run.dt},
          {"embedding", run.embedding},
          {"duration", options.duration ? json(*options.duration) : json(nullptr)},
          {"set", options.set},
          {"scene_hash", run.scene_hash}};
  if (run.engine != "eipc") {  // eipc's records stay as they were
    p["engine"] = run.engine;
    const auto config = std::find(run.command.begin(), run.command.end(), "--config");
    p["config"] = config != run.command.end() && config + 1 != run.command.end() ? json(*(config + 1)) : json(nullptr);
  }
  return p;
}

json write_run_record(const SweepRun& run, const SweepOptions& options, int exit_code,
                      const std::string& stdout_path) {
  json summary = read_json_file(stdout_path);
  const bool has_summary = !summary.is_discarded() && summary.is_object();
  std::string status = "failed";  // no trajectory: bad input, crash or killed
  if (has_summary && (exit_code == 0 || exit_code == 3)) status = summary.value("status", "failed");
  std::string command = run.engine == "eipc" ? "eipc" : "eipc-" + run.engine;
  for (const std::string& a : run.command) command += " " + a;
  json record = {{"format", "eipc-sweep-run"},
                 {"version", 1},
                 {"scenario", run.scenario},
                 {"embedding", run.embedding},
                 {"engine", run.engine},
                 {"dt", run.dt},
                 {"parameters", run_parameters(run, options)},
                 {"command", command},
                 {"exit_code", exit_code},
                 {"status", status},
                 {"trajectory", status == "failed" ? "" : run.name + ".h5"},
                 {"summary", has_summary ? summary : json(nullptr)}};
  if (exit_code != 0) record["message"] = file_tail(run.log());
  write_file_atomically(run.record(), record.dump(2) + "\n");
  std::filesystem::remove(stdout_path);
  return record;
}

void write_certificate(const SweepRun& run, int exit_code, const std::string& stdout_path) {
  json cert = read_json_file(stdout_path);
  if (cert.is_discarded() || !cert.is_object())
    cert = {{"format", "eipc-certify"}, {"error", file_tail(run.path(".certify.log"))}};
  cert["exit_code"] = exit_code;  // the process's, which is authoritative
  write_file_atomically(run.certificate(), cert.dump(2) + "\n");
  std::filesystem::remove(stdout_path);
}

bool run_is_finished(const SweepRun& run, const SweepOptions& options) {
  const json record = read_json_file(run.record());
  if (record.is_discarded() || !record.is_object() || record.value("format", "") != "eipc-sweep-run") return false;
  if (record.value("exit_code", -1) != 0 || record.value("status", "") != "complete") return false;
  if (record.value("parameters", json()) != run_parameters(run, options)) return false;
  try {
    return TrajectoryReader(run.trajectory()).status() == TrajectoryStatus::complete;
  } catch (const std::exception&) {  // missing, partial or damaged: run it again
    return false;
  }
}

bool has_certificate(const SweepRun& run, const SweepOptions& options) {
  const json cert = read_json_file(run.certificate());
  if (cert.is_discarded() || !cert.is_object() || !cert.contains("exit_code")) return false;
  return !options.continuous || cert.value("continuous", false);
}

std::string certified_value(const std::string& certificate_path) {
  const json cert = read_json_file(certificate_path);
  if (cert.is_discarded() || !cert.is_object() || !cert.contains("exit_code")) return "";
  const int code = cert["exit_code"].get<int>();
  if (code == 0) return "yes";
  if (code == 1 && cert.contains("summary")) {
    const json& s = cert["summary"];
    if (s.value("failed_frames", 0) > 0 || s.value("motions_collision", 0) > 0) return "no";
  }
  return "inconclusive";  // motions not ruled out, or the check itself could not run
}

}  // namespace eipc::cli
