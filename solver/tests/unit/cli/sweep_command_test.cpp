// `eipc sweep` and `eipc error` end to end on a tiny two-cube scene: runs.csv, resuming,
// failed runs, errors against a reference directory, exit codes.
#include "cli_test_helpers.hpp"
#include "eipc/analysis/trajectory_error.hpp"
#include "eipc/io/trajectory_file.hpp"
#include "eipc/io/trajectory_writer.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <sstream>

using namespace eipc;
using eipc::test::Result;
using eipc::test::run_eipc;
using eipc::test::Workspace;
namespace fs = std::filesystem;

namespace {

using Row = std::map<std::string, std::string>;

std::vector<Row> read_runs_csv(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::vector<std::string> columns;
  std::vector<Row> rows;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream s(line);
    std::string cell;
    while (std::getline(s, cell, ',')) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.push_back("");
    if (columns.empty()) {
      columns = cells;
      continue;
    }
    REQUIRE(cells.size() == columns.size());
    Row row;
    for (std::size_t i = 0; i < cells.size(); ++i) row[columns[i]] = cells[i];
    rows.push_back(row);
  }
  return rows;
}

std::string first_line(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

/// The cli scene with an "affine" embedding available for body a.
std::string scene(const Workspace& w) { return w.scene(R"(, "embeddings": {"affine": "affine"})"); }

}  // namespace

TEST_CASE("eipc sweep runs every combination, certifies it and tabulates runs.csv", "[cli][sweep]") {
  Workspace w;
  const fs::path out = w.dir / "sweep";
  const std::string args = "sweep " + scene(w) + " --dt 0.02,0.01 --embedding full,affine --out " + out.string();
  const Result r = run_eipc(args + " --jobs 2");
  INFO(r.output);
  REQUIRE(r.code == 0);
  CHECK(first_line(out / "runs.csv") ==
        "scenario,embedding,dt,steps,wall_seconds,real_time_factor,newton_mean,newton_max,line_search_steps,"
        "min_distance,certified,status,exit_code,trajectory,error,intersecting_frames,max_depth_m,"
        "first_intersection_time,engine,friction_rounds_mean,worst_frame_time,worst_frame_share");
  const std::vector<Row> rows = read_runs_csv(out / "runs.csv");
  REQUIRE(rows.size() == 4);
  const std::vector<std::pair<std::string, std::string>> order = {
      {"affine", "0.01"}, {"affine", "0.02"}, {"full", "0.01"}, {"full", "0.02"}};
  for (std::size_t i = 0; i < 4; ++i) {
    INFO(i);
    CHECK(rows[i].at("scenario") == "cli");
    CHECK(rows[i].at("embedding") == order[i].first);
    CHECK(rows[i].at("dt") == order[i].second);
    CHECK(rows[i].at("steps") == (order[i].second == "0.01" ? "2" : "1"));
    CHECK(rows[i].at("status") == "complete");
    CHECK(rows[i].at("exit_code") == "0");
    CHECK(rows[i].at("certified") == "yes");
    CHECK(rows[i].at("error") == "");
    CHECK(rows[i].at("intersecting_frames") == "0");
    CHECK(rows[i].at("max_depth_m") == "");
    CHECK(rows[i].at("first_intersection_time") == "");
    const std::string traj = "cli_" + order[i].first + "_dt" + order[i].second + ".h5";
    CHECK(rows[i].at("trajectory") == traj);
    const Trajectory t = read_trajectory((out / traj).string());
    CHECK(t.header.threads == 1);
    CHECK(t.header.bodies[0].embedding == order[i].first);
    CHECK(std::stod(rows[i].at("newton_mean")) >= 1.0);
    CHECK(std::stod(rows[i].at("wall_seconds")) > 0.0);
  }
  const auto record = nlohmann::json::parse(std::ifstream(out / "cli_full_dt0.01.json"));
  CHECK(record["summary"]["steps"] == 2);
  CHECK(record["exit_code"] == 0);

  SECTION("a second sweep skips finished runs and re-runs only what is missing") {
    const auto stamp = fs::last_write_time(out / "cli_full_dt0.01.h5");
    fs::remove(out / "cli_affine_dt0.02.h5");
    fs::remove(out / "cli_full_dt0.02.certify.json");
    const Result again = run_eipc(args);
    INFO(again.output);
    CHECK(again.code == 0);
    CHECK(count(again.output, "[sweep] skip") == 3);
    CHECK(count(again.output, "[sweep] start") == 1);
    CHECK_THAT(again.output, Catch::Contains("start  cli_affine_dt0.02"));
    CHECK(count(again.output, "[sweep] certify") == 2);  // the re-run and the lost certificate
    CHECK(fs::last_write_time(out / "cli_full_dt0.01.h5") == stamp);
    CHECK(read_runs_csv(out / "runs.csv").size() == 4);
  }
  SECTION("an intersecting trajectory: its depth and first time in runs.csv") {
    // Replace one finished run by a trajectory whose cube b is pushed into cube a
    // in its second frame, 5 mm deep in x; the resumed sweep certifies it again.
    const fs::path file = out / "cli_full_dt0.02.h5";
    Trajectory t = read_trajectory(file.string());
    REQUIRE(t.frames.size() == 2);
    const Vec3 shift(-0.105, 0.02, 0.02);  // b: x from 0.2 to 0.095, a spans x in [0, 0.1]
    for (Frame& f : t.frames) f.positions = t.frames[0].positions;
    t.frames[1].positions[1].rowwise() += shift.transpose();
    fs::remove(file);
    {
      TrajectoryWriter writer(file.string(), t.header);
      for (const Frame& f : t.frames) writer.append(f);
      writer.finish(TrajectoryStatus::complete);
    }
    fs::remove(out / "cli_full_dt0.02.certify.json");
    const Result again = run_eipc(args);
    INFO(again.output);
    CHECK(again.code == 1);  // not certified
    const std::vector<Row> again_rows = read_runs_csv(out / "runs.csv");
    REQUIRE(again_rows.size() == 4);
    const Row& row = again_rows[3];
    REQUIRE(row.at("trajectory") == "cli_full_dt0.02.h5");
    CHECK(row.at("certified") == "no");
    CHECK(row.at("intersecting_frames") == "1");
    CHECK(std::stod(row.at("max_depth_m")) == Approx(0.005).margin(1e-12));
    CHECK(std::stod(row.at("first_intersection_time")) == Approx(0.02));
    CHECK(again_rows[2].at("intersecting_frames") == "0");
  }
  SECTION("other parameters are other runs") {
    const Result longer = run_eipc(args + " --duration 0.04 --no-certify");
    INFO(longer.output);
    CHECK(longer.code == 0);
    CHECK(count(longer.output, "[sweep] start") == 4);
    CHECK(read_runs_csv(out / "runs.csv")[0].at("steps") == "4");
  }
}

TEST_CASE("eipc sweep keeps failed runs, reports them and exits 3", "[cli][sweep]") {
  Workspace w;
  const fs::path out = w.dir / "sweep";
  // One Newton iteration cannot converge the step in which a cube hits the ground at 1 m/s.
  const std::string falling = w.scene(R"(, "velocity": [0, 0, -1], "embeddings": {"affine": "affine"})");
  const Result r = run_eipc("sweep " + falling + " --dt 0.01 --embedding full --set solver.max_newton_iters=1 --out " +
                            out.string());
  INFO(r.output);
  CHECK(r.code == 3);
  const std::vector<Row> rows = read_runs_csv(out / "runs.csv");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].at("status") == "incomplete");
  CHECK(rows[0].at("exit_code") == "3");
  CHECK(rows[0].at("certified") == "yes");  // the frames that were stored are intersection free
  CHECK(read_trajectory((out / rows[0].at("trajectory")).string()).status == TrajectoryStatus::incomplete);
  const auto record = nlohmann::json::parse(std::ifstream(out / "cli_full_dt0.01.json"));
  CHECK_THAT(record["message"].get<std::string>(), Catch::Contains("Newton"));
}

TEST_CASE("eipc sweep refuses bad input with exit 2", "[cli][sweep]") {
  Workspace w;
  const std::string out = (w.dir / "sweep").string();
  Result r = run_eipc("sweep " + scene(w) + " --dt 0.01,-1 --embedding full --out " + out);
  CHECK(r.code == 2);
  CHECK_THAT(r.output, Catch::Contains("--dt"));
  r = run_eipc("sweep " + (w.dir / "none.json").string() + " --dt 0.01 --embedding full --out " + out);
  CHECK(r.code == 2);
  CHECK_THAT(r.output, Catch::Contains("none.json"));
  // An engine without a peer binary beside eipc (docs/peers.md).
  r = run_eipc("sweep " + scene(w) + " --dt 0.01 --embedding full --engine eipc,nosuch --out " + out);
  CHECK(r.code == 2);
  CHECK_THAT(r.output, Catch::Contains("eipc-nosuch"));
  // A directory of peer settings that is not one.
  r = run_eipc("sweep " + scene(w) + " --dt 0.01 --embedding full --peer-config " + (w.dir / "nosuch").string() +
               " --out " + out);
  CHECK(r.code == 2);
  CHECK_THAT(r.output, Catch::Contains("--peer-config"));
  // An embedding name or a --set no run could use: refused before any run (no runs.csv).
  for (const std::string& typo : {std::string("--embedding full,afine"), std::string("--embedding full --set contact.kapa=1")}) {
    r = run_eipc("sweep " + scene(w) + " --dt 0.01 " + typo + " --out " + out);
    INFO(r.output);
    CHECK(r.code == 2);
    CHECK_THAT(r.output, Catch::Contains("did you mean"));
    CHECK_FALSE(fs::exists(fs::path(out) / "runs.csv"));
  }
  // An --out that cannot be a directory.
  r = run_eipc("sweep " + scene(w) + " --dt 0.01 --embedding full --out " + scene(w) + "/sub");
  CHECK(r.code == 2);
  CHECK_THAT(r.output, Catch::Contains("--out") && !Catch::Contains("internal error"));
  // A child that rejects its input (the scene is checked at the first h; 0.03 s does not divide
  // the duration): that run is recorded as failed, the sweep exits 2.
  r = run_eipc("sweep " + scene(w) + " --dt 0.01,0.03 --embedding full --out " + out);
  INFO(r.output);
  CHECK(r.code == 2);
  const std::vector<Row> rows = read_runs_csv(fs::path(out) / "runs.csv");
  REQUIRE(rows.size() == 2);
  CHECK(rows[1].at("dt") == "0.03");
  CHECK(rows[1].at("status") == "failed");
  CHECK(rows[1].at("exit_code") == "2");
  CHECK(rows[1].at("trajectory") == "");
  CHECK(rows[1].at("certified") == "");
}

TEST_CASE("eipc sweep and eipc error measure E(h) against a reference directory", "[cli][sweep]") {
  Workspace w;
  const std::string sc = scene(w);
  const fs::path ref = w.dir / "ref" / "cli" / "full.h5";
  fs::create_directories(ref.parent_path());
  REQUIRE(run_eipc("run " + sc + " --dt 0.005 --out " + ref.string()).code == 0);
  const fs::path out = w.dir / "sweep";
  const Result r = run_eipc("sweep " + sc + " --dt 0.01,0.02 --embedding full,affine --no-certify --out " +
                            out.string() + " --reference " + (w.dir / "ref").string());
  INFO(r.output);
  REQUIRE(r.code == 0);
  const std::vector<Row> rows = read_runs_csv(out / "runs.csv");
  REQUIRE(rows.size() == 4);
  for (const Row& row : rows) {
    INFO(row.at("trajectory"));
    CHECK(row.at("certified") == "");
    if (row.at("embedding") == "affine") {
      CHECK(row.at("error") == "");  // no REF/cli/affine.h5, and a warning says so
      CHECK_THAT(r.output, Catch::Contains("warning: no error for " + (out / row.at("trajectory")).string() +
                                           ": no reference " + (w.dir / "ref" / "cli" / "affine.h5").string()));
      continue;
    }
    const TrajectoryError e = trajectory_error((out / row.at("trajectory")).string(), ref.string());
    CHECK(e.error > 0.0);
    CHECK(std::stod(row.at("error")) == e.error);
    // The worst frame's share of E^2 (E^2 is the frames' mean squared RMS), as the report cites it.
    CHECK(std::stod(row.at("worst_frame_time")) == e.worst_time);
    const double share = std::stod(row.at("worst_frame_share"));
    CHECK(share == Approx(e.worst_error * e.worst_error / (e.frames * e.error * e.error)).epsilon(1e-15));
    CHECK(share >= 1.0 / e.frames);
    CHECK(share <= 1.0);
  }

  const std::string run = (out / "cli_full_dt0.02.h5").string();
  const Result json = run_eipc("error " + run + " " + ref.string() + " --json");
  INFO(json.output);
  REQUIRE(json.code == 0);
  const auto j = nlohmann::json::parse(json.output);
  CHECK(j["frames"] == 1);
  CHECK(j["step_ratio"] == 4);
  CHECK(j["error"].get<double>() == trajectory_error(run, ref.string()).error);
  const Result body = run_eipc("error " + run + " " + ref.string() + " --body b --body a");
  CHECK(body.code == 0);
  CHECK_THAT(body.output, Catch::Contains("body b") && Catch::Contains("body a"));
  const Result swapped = run_eipc("error " + ref.string() + " " + run);
  CHECK(swapped.code == 2);
  CHECK_THAT(swapped.output, Catch::Contains("not an integer multiple"));
  CHECK_THAT(body.output, !Catch::Contains("warning"));
  // Against another method's reference: a number, and a warning that it mixes two things.
  const Result mixed = run_eipc("error " + (out / "cli_affine_dt0.02.h5").string() + " " + ref.string() + " --body a");
  INFO(mixed.output);
  CHECK(mixed.code == 0);
  CHECK_THAT(mixed.output, Catch::Contains("warning: body 'a' is 'affine' in") && Catch::Contains("but 'full'"));
  const Result unknown = run_eipc("error " + run + " " + ref.string() + " --body c");
  CHECK(unknown.code == 2);
  CHECK_THAT(unknown.output, Catch::Contains("no body 'c'"));
}
