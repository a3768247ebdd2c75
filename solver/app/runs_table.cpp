#include "runs_table.hpp"

#include "eipc/analysis/trajectory_error.hpp"
#include "eipc/io/csv_field.hpp"
#include "sweep_plan.hpp"
#include "sweep_records.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <tuple>

namespace eipc::cli {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

/// A summary number as text; "" if absent, "inf" for a null min_distance (no contact).
std::string summary_number(const json& summary, const char* key, const char* null_text = "") {
  if (!summary.is_object() || !summary.contains(key)) return "";
  const json& v = summary[key];
  if (v.is_null()) return null_text;
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number()) return exact_number(v.get<double>());
  return "";
}

std::optional<TrajectoryError> error_against(const fs::path& dir, const json& record, const std::string& reference) {
  // Each engine is measured against its own fine-step reference.
  const std::string engine = record.value("engine", "eipc");
  const fs::path ref = fs::path(reference) / record.value("scenario", "") /
                       ((engine == "eipc" ? "" : engine + "_") + record.value("embedding", "") + ".h5");
  const std::string run = (dir / record.value("trajectory", "")).string();
  if (record.value("status", "") != "complete") return std::nullopt;  // its status column says why
  if (!fs::exists(ref)) {
    fmt::print(stderr, "[sweep] warning: no error for {}: no reference {} (make it with --reference-dt H, "
                       "docs/sweep.md)\n", run, ref.string());
    return std::nullopt;
  }
  try {
    return trajectory_error(run, ref.string());
  } catch (const std::exception& e) {
    fmt::print(stderr, "[sweep] warning: no error for {}: {}\n", run, e.what());
    return std::nullopt;
  }
}

}  // namespace

const std::vector<std::string>& runs_csv_columns() {
  static const std::vector<std::string> columns = {
      "scenario", "embedding", "dt", "steps", "wall_seconds", "real_time_factor", "newton_mean", "newton_max",
      "line_search_steps", "min_distance", "certified", "status", "exit_code", "trajectory", "error",
      "intersecting_frames", "max_depth_m", "first_intersection_time", "engine", "friction_rounds_mean",
      "worst_frame_time", "worst_frame_share"};
  return columns;
}

std::vector<RunRow> collect_runs(const std::string& dir, const std::optional<std::string>& reference) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
  std::vector<RunRow> rows;
  for (const fs::path& file : files) {
    const json record = read_json_file(file.string());
    if (record.is_discarded() || !record.is_object() || record.value("format", "") != "eipc-sweep-run") continue;
    RunRow row;
    row.scenario = record.value("scenario", "");
    row.embedding = record.value("embedding", "");
    row.engine = record.value("engine", "eipc");
    row.dt = record.value("dt", 0.0);
    row.file = file.filename().string();
    row.status = record.value("status", "failed");
    row.exit_code = record.value("exit_code", -1);
    const std::string stem = file.filename().string().substr(0, file.filename().string().size() - 5);
    const std::string certificate = (fs::path(dir) / (stem + ".certify.json")).string();
    row.certified = certified_value(certificate);
    const json summary = record.value("summary", json());
    const std::optional<TrajectoryError> error = reference ? error_against(dir, record, *reference) : std::nullopt;
    row.cells = {row.scenario,
                 row.embedding,
                 exact_number(row.dt),
                 summary_number(summary, "steps"),
                 summary_number(summary, "wall_seconds"),
                 summary_number(summary, "real_time_factor"),
                 summary_number(summary, "newton_iterations_mean"),
                 summary_number(summary, "newton_iterations_max"),
                 summary_number(summary, "line_search_steps"),
                 summary_number(summary, "min_distance", "inf"),
                 row.certified,
                 row.status,
                 std::to_string(row.exit_code),
                 record.value("trajectory", ""),
                 error ? exact_number(error->error) : ""};
    // The certificate's depth summary (docs/certify.md): empty cells when there is none.
    const json cert = read_json_file(certificate);
    const json depth = cert.is_object() ? cert.value("summary", json()) : json();
    for (const char* key : {"intersecting_frames", "max_depth", "first_intersection_time"})
      row.cells.push_back(summary_number(depth, key));
    row.cells.push_back(row.engine);
    row.cells.push_back(summary_number(summary, "friction_rounds_mean"));
    // Where E(h) comes from: the frame with the largest error and its share of E^2
    // (E^2 is the mean of the frames' squared RMS), which the report cites when the
    // fitted order is far from 1 (docs/report.md).
    const bool has_share = error && error->error > 0 && error->frames > 0;
    row.cells.push_back(has_share ? exact_number(error->worst_time) : "");
    row.cells.push_back(has_share ? exact_number(error->worst_error * error->worst_error /
                                                 (double(error->frames) * error->error * error->error))
                                  : "");
    rows.push_back(std::move(row));
  }
  std::sort(rows.begin(), rows.end(), [](const RunRow& a, const RunRow& b) {
    return std::tie(a.scenario, a.embedding, a.dt, a.engine, a.file) <
           std::tie(b.scenario, b.embedding, b.dt, b.engine, b.file);
  });
  return rows;
}

void write_runs_csv(const std::string& dir, const std::vector<RunRow>& rows) {
  std::string text;
  for (const std::string& c : runs_csv_columns()) text += (text.empty() ? "" : ",") + c;
  text += "\n";
  for (const RunRow& r : rows) {
    for (std::size_t i = 0; i < r.cells.size(); ++i) text += (i ? "," : "") + csv_field(r.cells[i]);
    text += "\n";
  }
  write_file_atomically((fs::path(dir) / "runs.csv").string(), text);
}

}  // namespace eipc::cli
