// `eipc report` end to end on a synthetic sweep directory: runs.csv with known E(h) and wall
// times, and trajectories (written with TrajectoryWriter) with known forces between bubble_left
// and teddy. The tables must hold the independently computed numbers, the plots must exist.
// Needs Debian's python3 with matplotlib/numpy/h5py (ci/setup-deps); without it the test
// prints EIPC_TEST_SKIPPED, which CTest reports as skipped.
#include "cli_test_helpers.hpp"
#include "eipc/io/trajectory_file.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

using namespace eipc;
namespace fs = std::filesystem;

namespace {

bool have_plot_python() {
  static const bool ok = std::system("/usr/bin/python3 -c 'import matplotlib, numpy, h5py' 2>/dev/null") == 0;
  return ok;
}

#define SKIP_WITHOUT_PLOT_PYTHON()                                                                    \
  if (!have_plot_python()) {                                                                          \
    WARN("EIPC_TEST_SKIPPED: /usr/bin/python3 lacks matplotlib, numpy or h5py (run ci/setup-deps)"); \
    return;                                                                                           \
  }

test::Result eipc_report(const std::string& args) { return test::run_eipc("report " + args); }

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Rows of a CSV file as column -> text maps.
std::vector<std::map<std::string, std::string>> read_csv(const fs::path& p) {
  std::ifstream in(p);
  std::string line, cell;
  std::getline(in, line);
  std::vector<std::string> header;
  for (std::istringstream s(line); std::getline(s, cell, ',');) header.push_back(cell);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    std::map<std::string, std::string> row;
    std::istringstream s(line);
    for (const std::string& column : header) {
      std::getline(s, cell, ',');
      row[column] = cell;
    }
    rows.push_back(row);
  }
  return rows;
}

TrajectoryBody one_tet_body(const std::string& name, double x0) {
  TrajectoryBody b;
  b.name = name;
  b.rest.resize(4, 3);
  b.rest << x0, 0, 0, x0 + 1, 0, 0, x0, 1, 0, x0, 0, 1;
  b.tets.resize(1, 4);
  b.tets << 0, 1, 2, 3;
  b.surface.resize(4, 3);
  b.surface << 0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3;
  return b;
}

/// Known contact force on bubble_left from teddy in frame i (scaled per method).
Vec3 normal_on_bubble(int i, double scale) { return scale * Vec3(0.25 * i, -2.0 * i, 0.0); }
Vec3 friction_on_bubble(int i, double scale) { return scale * Vec3(0.0, 0.0, -0.125 * i); }

/// A run of 0.04 s at step h. With teddy_first the bodies are stored as (teddy, bubble_left),
/// so the file holds the force on teddy from bubble_left: the report must flip its sign.
void write_run(const fs::path& path, double h, double scale, bool teddy_first) {
  TrajectoryHeader header;
  header.scenario = "synthetic_grasp";
  header.scene_json = R"({"format": "eipc-scene", "version": 1, "name": "synthetic_grasp"})";
  header.dt = h;
  header.duration = 0.04;
  header.bodies = {one_tet_body("bubble_left", 0.0), one_tet_body("teddy", 3.0)};
  if (teddy_first) std::swap(header.bodies[0], header.bodies[1]);
  TrajectoryWriter writer(path.string(), header);
  const int frames = static_cast<int>(std::lround(0.04 / h)) + 1;
  for (int i = 0; i < frames; ++i) {
    Frame f;
    f.step = i;
    f.time = i * h;
    f.positions = {header.bodies[0].rest, header.bodies[1].rest};
    f.stats.active_pairs = 3 * i;
    if (i > 0) {
      const double sign = teddy_first ? -1.0 : 1.0;
      f.pair_forces.push_back({0, 1, sign * normal_on_bubble(i, scale), sign * friction_on_bubble(i, scale), i + 1});
    }
    writer.append(f);
  }
  writer.finish(TrajectoryStatus::complete);
}

const char* const kHeader =
    "scenario,embedding,dt,steps,wall_seconds,real_time_factor,newton_mean,newton_max,line_search_steps,"
    "min_distance,certified,status,exit_code,trajectory,error\n";

struct SweepDir {
  fs::path dir = fs::temp_directory_path() / ("eipc_report_" + std::to_string(::getpid()));
  const double steps[3] = {0.005, 0.01, 0.02};
  const double full_wall[3] = {40.0, 20.0, 10.0}, low_wall[3] = {8.0, 5.0, 4.0};
  const double low_error[3] = {1.0e-3, 2.2e-3, 3.9e-3};  // not a pure power law

  SweepDir() {
    fs::remove_all(dir);
    fs::create_directories(dir / "runs");
    std::string csv = kHeader;
    for (int k = 0; k < 3; ++k) {
      const double h = steps[k];
      char line[512];
      const std::string full = "runs/full_" + std::to_string(k) + ".h5", low = "runs/low_" + std::to_string(k) + ".h5";
      write_run(dir / full, h, 1.0, true);
      write_run(dir / low, h, 1.5, false);
      std::snprintf(line, sizeof line, "synthetic_grasp,full,%g,%ld,%.17g,%.17g,4.5,9,2,1e-4,yes,complete,0,%s,%.17g\n",
                    h, std::lround(0.04 / h), full_wall[k], 0.04 / full_wall[k], full.c_str(), 0.1 * h);
      csv += line;
      std::snprintf(line, sizeof line, "synthetic_grasp,low,%g,%ld,%.17g,%.17g,3.25,7,0,2e-4,yes,complete,0,%s,%.17g\n",
                    h, std::lround(0.04 / h), low_wall[k], 0.04 / low_wall[k], low.c_str(), low_error[k]);
      csv += line;
    }
    csv += "synthetic_grasp,affine,0.02,,,,,,,,,incomplete,3,,\n";  // a failed run: listed, not tabulated
    std::ofstream(dir / "runs.csv") << csv;
  }
  ~SweepDir() { fs::remove_all(dir); }
};

/// Least-squares slope of log y against log x, computed here independently of the script.
double loglog_slope(const double* x, const double* y, int n) {
  double mx = 0, my = 0;
  for (int i = 0; i < n; ++i) mx += std::log(x[i]) / n, my += std::log(y[i]) / n;
  double sxy = 0, sxx = 0;
  for (int i = 0; i < n; ++i) {
    sxy += (std::log(x[i]) - mx) * (std::log(y[i]) - my);
    sxx += (std::log(x[i]) - mx) * (std::log(x[i]) - mx);
  }
  return sxy / sxx;
}

}  // namespace

TEST_CASE("eipc report tabulates E, fitted order, timing and pair forces of a sweep", "[cli][report]") {
  SKIP_WITHOUT_PLOT_PYTHON();
  SweepDir sweep;
  const fs::path out = sweep.dir / "results";
  const test::Result r = eipc_report(sweep.dir.string() + " --out " + out.string() + " --dt 0.01 --pair bubble_left,teddy");
  INFO(r.output);
  REQUIRE(r.code == 0);

  for (const char* name : {"report.md", "convergence.csv", "timing.csv", "contact_forces.csv"}) {
    CHECK(fs::file_size(out / name) > 0);
  }
  for (const char* stem : {"contact_forces", "contact_pairs", "error_vs_dt", "wall_vs_dt", "error_vs_wall"}) {
    for (const char* ext : {".png", ".svg"}) {
      INFO(stem << ext);
      CHECK(fs::exists(out / (std::string(stem) + ext)));
      CHECK(fs::file_size(out / (std::string(stem) + ext)) > 1000);
    }
  }

  {  // convergence: E per method and h, order = least-squares slope of log E vs log h
    const double low_order = loglog_slope(sweep.steps, sweep.low_error, 3);
    int rows = 0;
    for (const auto& row : read_csv(out / "convergence.csv")) {
      const double h = std::stod(row.at("dt")), e = std::stod(row.at("error"));
      const double order = std::stod(row.at("fitted_order"));
      INFO(row.at("embedding") << " h = " << h);
      if (row.at("embedding") == "full") {
        CHECK(e == 0.1 * h);
        CHECK(order == Approx(1.0).margin(1e-12));  // E = 0.1 h
      } else {
        REQUIRE(row.at("embedding") == "low");
        CHECK(order == Approx(low_order).margin(1e-12));
      }
      ++rows;
    }
    CHECK(rows == 6);
    const std::string md = slurp(out / "report.md");
    CHECK_THAT(md, Catch::Contains("| full | 5.000e-04 | 1.000e-03 | 2.000e-03 | 1.000 |"));
    char low_row[128];
    std::snprintf(low_row, sizeof low_row, "| low | 1.000e-03 | 2.200e-03 | 3.900e-03 | %.3f |", low_order);
    CHECK_THAT(md, Catch::Contains(low_row));
    CHECK_THAT(md, Catch::Contains("| affine | not run | not run | failed (exit 3) | – |"));
    CHECK_THAT(md, Catch::Contains("eipc report " + sweep.dir.string() + " --out " + out.string() +
                                   " --pair bubble_left,teddy --dt 0.01"));
  }

  {  // timing: wall, RTF, Newton iterations and the speed-up of each method over full at the same h
    const auto rows = read_csv(out / "timing.csv");
    REQUIRE(rows.size() == 6);
    for (const auto& row : rows) {
      const double h = std::stod(row.at("dt"));
      const int k = h < 0.0075 ? 0 : h < 0.015 ? 1 : 2;
      const bool low = row.at("embedding") == "low";
      CHECK(std::stod(row.at("wall_seconds")) == (low ? sweep.low_wall[k] : sweep.full_wall[k]));
      CHECK(std::stod(row.at("newton_mean")) == (low ? 3.25 : 4.5));
      CHECK(std::stod(row.at("speedup_vs_full")) == Approx(low ? sweep.full_wall[k] / sweep.low_wall[k] : 1.0));
    }
    const std::string md = slurp(out / "report.md");
    CHECK_THAT(md, Catch::Contains("| low | 0.01 | 5 | 0.008 | 3.25 | 7 | 4.00× | yes |"));
    CHECK_THAT(md, Catch::Contains("| low | 0.02 | 4 | 0.01 | 3.25 | 7 | 2.50× | yes |"));
  }

  {  // force series: on bubble_left from teddy, whichever order the file stores the bodies in
    const auto rows = read_csv(out / "contact_forces.csv");
    REQUIRE(rows.size() == 2 * 5);  // two methods, 5 frames at h = 0.01
    for (const auto& row : rows) {
      const double t = std::stod(row.at("time"));
      const int i = static_cast<int>(std::lround(t / 0.01));
      const double scale = row.at("embedding") == "low" ? 1.5 : 1.0;
      INFO(row.at("embedding") << " frame " << i);
      const Vec3 n(std::stod(row.at("normal_x")), std::stod(row.at("normal_y")), std::stod(row.at("normal_z")));
      const Vec3 f(std::stod(row.at("friction_x")), std::stod(row.at("friction_y")), std::stod(row.at("friction_z")));
      CHECK((n - normal_on_bubble(i, scale)).norm() == 0.0);
      CHECK((f - friction_on_bubble(i, scale)).norm() == 0.0);
      CHECK(std::stoi(row.at("pairs_bubble_left_teddy")) == (i > 0 ? i + 1 : 0));
      CHECK(std::stoi(row.at("active_pairs")) == 3 * i);
    }
  }
}

TEST_CASE("eipc report defaults: into DIR/report, forces of the pair in most contact", "[cli][report]") {
  SKIP_WITHOUT_PLOT_PYTHON();
  SweepDir sweep;
  const fs::path cwd = fs::current_path();
  fs::current_path(sweep.dir / "runs");  // nothing is written into the current directory
  const test::Result r = eipc_report(sweep.dir.string() + " --dt 0.01");
  fs::current_path(cwd);
  INFO(r.output);
  REQUIRE(r.code == 0);
  CHECK_FALSE(fs::exists(sweep.dir / "runs" / "report.md"));
  const std::string md = slurp(sweep.dir / "report" / "report.md");
  // The first finished run at h = 0.01 (full) stores the pair as (teddy, bubble_left).
  CHECK_THAT(md, Catch::Contains("Forces of teddy and bubble_left: the pair in most contact"));
  CHECK_THAT(md, Catch::Contains("on teddy from bubble_left"));
  const auto rows = read_csv(sweep.dir / "report" / "contact_forces.csv");
  REQUIRE(rows.size() == 2 * 5);
  for (const auto& row : rows) {  // the force on teddy: the opposite of the one on the bubble
    const int i = static_cast<int>(std::lround(std::stod(row.at("time")) / 0.01));
    const double scale = row.at("embedding") == "low" ? 1.5 : 1.0;
    CHECK(std::stod(row.at("normal_y")) == -normal_on_bubble(i, scale).y());
  }
  CHECK_THAT(r.output, Catch::Contains("fitted order") && Catch::Contains("over h = 0.005, 0.01, 0.02 s"));
}

namespace {

void check_bad(const test::Result& r, const std::vector<std::string>& expected) {
  INFO(r.output);
  CHECK(r.code == 2);
  for (const std::string& e : expected) CHECK_THAT(r.output, Catch::Contains(e));
  CHECK_THAT(r.output, !Catch::Contains("Traceback"));
}

}  // namespace

TEST_CASE("eipc report rejects a bad directory or options with exit code 2", "[cli][report]") {
  SweepDir sweep;
  const std::string dir = sweep.dir.string(), csv = (sweep.dir / "runs.csv").string();
  const std::string out = " --out " + (sweep.dir / "results").string();
  SECTION("no runs.csv") {
    fs::remove(csv);
    check_bad(eipc_report(dir + out), {csv, "file not found"});
  }
  SECTION("a missing column") {
    std::string text = slurp(csv);
    text.replace(text.find(",error\n"), 7, "\n");
    std::ofstream(csv) << text;
    check_bad(eipc_report(dir + out), {csv, "missing column(s) error"});
  }
  SECTION("--pair not of the form A,B") {
    check_bad(eipc_report(dir + out + " --pair teddy"), {"--pair", "'teddy'"});
  }
  SECTION("--dt not a positive number") { check_bad(eipc_report(dir + out + " --dt -1"), {"--dt", "'-1'"}); }
}

TEST_CASE("eipc report rejects bad runs.csv rows and trajectories with exit code 2", "[cli][report]") {
  SKIP_WITHOUT_PLOT_PYTHON();  // these checks are made by analysis/report.py
  SweepDir sweep;
  const std::string dir = sweep.dir.string(), csv = (sweep.dir / "runs.csv").string();
  const std::string out = " --out " + (sweep.dir / "results").string();
  SECTION("a body the trajectories do not have") {
    check_bad(eipc_report(dir + out + " --dt 0.01 --pair bubble_left,bear"),
              {(sweep.dir / "runs/full_1.h5").string(), "body_names", "'bear'"});
  }
  SECTION("a time step no run has") {
    check_bad(eipc_report(dir + out + " --dt 0.03"), {"--dt 0.03", "no run with this time step"});
  }
  SECTION("a value that is not a number") {
    std::string text = slurp(csv);
    const std::size_t second_row = text.find('\n', text.find('\n') + 1) + 1;  // line 3
    text.replace(text.find(",0.005,", second_row), 7, ",0.0o5,");
    std::ofstream(csv) << text;
    check_bad(eipc_report(dir + out), {csv + " line 3: field 'dt': '0.0o5' is not a number"});
  }
  SECTION("a trajectory that is not there") {
    fs::remove(sweep.dir / "runs/low_0.h5");
    check_bad(eipc_report(dir + out + " --dt 0.005"),
              {csv + " line 3: field 'trajectory'", (sweep.dir / "runs/low_0.h5").string(), "does not exist"});
  }
}

TEST_CASE("analysis/tests: the report's Python unit tests pass", "[report][python]") {
  SKIP_WITHOUT_PLOT_PYTHON();
  // EIPC: the binary test_error_breakdown.py runs (this build's, sanitizer build included).
  const std::string cmd = "EIPC='" EIPC_BINARY "' /usr/bin/python3 -m unittest discover -s '" EIPC_TEST_DATA
                          "/../../../analysis/tests' 2>&1";
  CHECK(std::system(cmd.c_str()) == 0);
}
