// eipc report DIR: convergence and timing tables, force/contact/convergence plots and report.md
// from a sweep directory, made by analysis/report.py (docs/report.md).
#include "commands.hpp"
#include "eipc/common.hpp"
#include "python_runner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

namespace eipc::cli {

namespace {

struct ReportOptions {
  std::string dir, out, pair, dt, scenario;  ///< out "": DIR/report; pair "": the pair in most contact
  std::string hold, hold_axis, force_reference;  ///< checked by the script
};

/// The runs.csv columns written by `eipc sweep` (the list in analysis/eipc_report/runs.py).
const char* const kRunsColumns[] = {"scenario", "embedding", "dt", "steps", "wall_seconds", "real_time_factor",
                                    "newton_mean", "newton_max", "line_search_steps", "min_distance",
                                    "certified", "status", "exit_code", "trajectory", "error"};

std::string trimmed_field(std::string s) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '"'; };
  while (!s.empty() && blank(s.back())) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && blank(s[i])) ++i;
  return s.substr(i);
}

/// Checked here too so bad input is reported (exit 2) even where Python is missing.
void check_runs_csv(const std::string& dir) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(dir)) throw InputError(dir + ": not a directory (the --out DIR of `eipc sweep`)");
  const std::string path = (fs::path(dir) / "runs.csv").string();
  std::ifstream in(path);
  if (!in) throw InputError(path + ": file not found (make it with `eipc sweep SCENE ... --out " + dir + "`)");
  std::string header, field, missing;
  std::getline(in, header);
  if (header.rfind("\xEF\xBB\xBF", 0) == 0) header.erase(0, 3);  // UTF-8 byte-order mark
  std::vector<std::string> fields;
  std::istringstream split(header);
  while (std::getline(split, field, ',')) fields.push_back(trimmed_field(field));
  for (const char* column : kRunsColumns) {
    if (std::find(fields.begin(), fields.end(), column) != fields.end()) continue;
    missing += (missing.empty() ? "" : ", ") + std::string(column);
  }
  if (!missing.empty()) throw InputError(path + ": header: missing column(s) " + missing);
}

void check_options(const ReportOptions& o) {
  const std::size_t comma = o.pair.find(',');
  if (!o.pair.empty() &&
      (comma == std::string::npos || comma == 0 || comma + 1 == o.pair.size() ||
       o.pair.find(',', comma + 1) != std::string::npos || o.pair.substr(0, comma) == o.pair.substr(comma + 1))) {
    throw InputError("--pair: '" + o.pair + "' is not two different body names 'A,B'");
  }
  if (!o.dt.empty()) {
    char* end = nullptr;
    const double h = std::strtod(o.dt.c_str(), &end);
    if (end == o.dt.c_str() || *end != '\0' || !(std::isfinite(h) && h > 0)) {
      throw InputError("--dt: '" + o.dt + "' is not a positive time step");
    }
  }
}

/// The command as the user would retype it, quoted in report.md.
std::string report_command_line(const ReportOptions& o) {
  std::string c = "eipc report " + o.dir;
  if (!o.out.empty()) c += " --out " + o.out;
  if (!o.pair.empty()) c += " --pair " + o.pair;
  if (!o.dt.empty()) c += " --dt " + o.dt;
  if (!o.scenario.empty()) c += " --scenario " + o.scenario;
  if (!o.hold.empty()) c += " --hold " + o.hold;
  if (!o.hold_axis.empty()) c += " --hold-axis " + o.hold_axis;
  if (!o.force_reference.empty()) c += " --force-reference " + o.force_reference;
  return c;
}

int run_report(const ReportOptions& o) {
  check_options(o);
  check_runs_csv(o.dir);
  const std::optional<std::string> script = find_analysis_script("report.py");
  if (!script) {
    std::fprintf(stderr, "error: analysis/report.py not found (looked in the source tree and next to eipc)\n");
    return 4;
  }
  std::vector<std::string> tried;
  const std::optional<std::string> python = find_python({"matplotlib", "numpy", "h5py"}, tried);
  if (!python) {
    std::string list;
    for (const std::string& t : tried) list += (list.empty() ? "" : ", ") + t;
    std::fprintf(stderr,
                 "error: eipc report needs Python 3 with matplotlib, numpy and h5py (Debian: apt-get install "
                 "python3-matplotlib python3-h5py; or set EIPC_PYTHON); tried: %s\n",
                 list.empty() ? "no python3 found" : list.c_str());
    return 4;
  }
  std::vector<std::string> argv = {*python, *script, o.dir, "--command", report_command_line(o)};
  if (!o.out.empty()) argv.insert(argv.end(), {"--out", o.out});
  if (!o.pair.empty()) argv.insert(argv.end(), {"--pair", o.pair});
  if (!o.dt.empty()) argv.insert(argv.end(), {"--dt", o.dt});
  if (!o.scenario.empty()) argv.insert(argv.end(), {"--scenario", o.scenario});
  if (!o.hold.empty()) argv.insert(argv.end(), {"--hold", o.hold});
  if (!o.hold_axis.empty()) argv.insert(argv.end(), {"--hold-axis", o.hold_axis});
  if (!o.force_reference.empty()) argv.insert(argv.end(), {"--force-reference=" + o.force_reference});
  std::fflush(nullptr);
  const int code = run_program(argv);
  if (code == 0 || code == 2) return code;  // 2: the script named the bad input
  std::fprintf(stderr, "error: %s %s failed with exit code %d\n", python->c_str(), script->c_str(), code);
  return 4;
}

}  // namespace

void add_report_command(CLI::App& app) {
  auto o = std::make_shared<ReportOptions>();
  CLI::App* cmd = app.add_subcommand("report", "Convergence/timing tables and plots of a sweep directory "
                                               "(DIR/runs.csv + trajectories) into --out; see docs/report.md");
  cmd->add_option("dir", o->dir, "sweep directory (the --out of `eipc sweep`) holding runs.csv")->required();
  cmd->add_option("--out", o->out, "output directory for tables, plots and report.md (default: DIR/report)");
  cmd->add_option("--pair", o->pair, "A,B: plot the contact force on body A from body B (default: the pair in "
                                     "most contact)");
  cmd->add_option("--dt", o->dt, "time step of the force and contact-pair plots (default: the one most methods ran)");
  cmd->add_option("--scenario", o->scenario, "scenario to report when runs.csv holds several");
  cmd->add_option("--hold", o->hold, "T0,T1: each method's mean contact force on A from B over this window "
                                     "(hold_force.csv, a table in report.md)");
  cmd->add_option("--hold-axis", o->hold_axis, "force component of --hold: x (default), y or z");
  cmd->add_option("--force-reference", o->force_reference,
                  "converged hold force (N): each method's signed force error against it, and its plot");
  cmd->callback([o] {
    const int code = run_report(*o);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace eipc::cli
