// `eipc sweep` as tasks: a stop signal keeps what finished and records the stopped run as
// incomplete (eipc run keeps its trajectory marked incomplete), `--status DIR`, and
// references made by the sweep (--reference-dt). The Slurm backend: solver/tests/cluster.
#include "cli_test_helpers.hpp"
#include "eipc/io/trajectory_file.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <thread>

using namespace eipc;
using Catch::Matchers::Contains;
using eipc::test::Result;
using eipc::test::run_eipc;
using eipc::test::Workspace;
namespace fs = std::filesystem;

namespace {

/// Starts eipc with these arguments in the background, output into `log`.
pid_t start_eipc(const std::vector<std::string>& args, const fs::path& log) {
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const int out = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(out, 1);
    dup2(out, 2);
    std::vector<char*> argv{const_cast<char*>(EIPC_BINARY)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(EIPC_BINARY, argv.data());
    _exit(127);
  }
  return child;
}

/// Waits until `file` exists (at most 30 s), then a little more so that steps are stored.
void wait_for(const fs::path& file) {
  for (int i = 0; i < 600 && !fs::exists(file); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  REQUIRE(fs::exists(file));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
}

int wait_exit_code(pid_t child) {
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  return WEXITSTATUS(status);
}

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("eipc run stops on SIGTERM, keeping the trajectory up to the last completed step marked incomplete",
          "[cli]") {
  Workspace w;
  const fs::path out = w.dir / "stopped.h5";
  const pid_t child =
      start_eipc({"run", w.scene(), "--duration", "1000", "--json", "--out", out.string()}, w.dir / "run.log");
  wait_for(trajectory_partial_path(out.string()));
  kill(child, SIGTERM);
  CHECK(wait_exit_code(child) == 3);
  const std::string log = read_text(w.dir / "run.log");
  INFO(log);
  // Between steps or within one (the signal may come during a Newton iteration).
  CHECK_THAT(log, Contains("\"status\": \"incomplete\"") && Contains("interrupted by SIGTERM"));
  const Trajectory t = read_trajectory(out.string());
  CHECK(t.status == TrajectoryStatus::incomplete);
  CHECK_THAT(t.status_reason, Contains("SIGTERM"));
  CHECK(t.frames.size() >= 2);
}

TEST_CASE("a stopped sweep records its running run as incomplete and resumes it; --status shows each run",
          "[cli][sweep]") {
  Workspace w;
  const std::string scene = w.scene();
  const fs::path out = w.dir / "sweep";
  // dt 0.01 takes two steps; dt 1e-7 takes 200000, so it is still running when stopped.
  const std::vector<std::string> args{"sweep", scene, "--dt", "0.01,1e-7", "--embedding", "full", "--jobs", "2",
                                      "--out", out.string()};
  const Result none = run_eipc("sweep --status " + out.string());  // nothing planned yet
  CHECK(none.code == 2);
  CHECK_THAT(none.output, Contains("sweep-plan.json"));
  const pid_t sweep = start_eipc(args, w.dir / "sweep.log");
  wait_for(out / "cli_full_dt1e-07.h5.partial");
  const Result running = run_eipc("sweep --status " + out.string());
  INFO(running.output);
  CHECK(running.code == 0);
  CHECK_THAT(running.output, Contains("running") && Contains("cli_full_dt1e-07"));
  kill(sweep, SIGTERM);
  CHECK(wait_exit_code(sweep) == 128 + SIGTERM);
  INFO(read_text(w.dir / "sweep.log"));

  const auto record = nlohmann::json::parse(std::ifstream(out / "cli_full_dt1e-07.json"));
  CHECK(record["status"] == "incomplete");
  CHECK(record["exit_code"] == 3);
  CHECK_THAT(record["summary"]["reason"].get<std::string>(), Contains("interrupted by SIGTERM"));
  CHECK(read_trajectory((out / "cli_full_dt1e-07.h5").string()).status == TrajectoryStatus::incomplete);
  CHECK_FALSE(fs::exists(out / "cli_full_dt1e-07.certify.json"));  // nothing certified after the stop
  const auto attempt = nlohmann::json::parse(std::ifstream(out / "cli_full_dt1e-07.attempt.json"));
  CHECK(attempt["exit_code"] == 128 + SIGTERM);
  CHECK_FALSE(attempt["finished"].is_null());

  const Result status = run_eipc("sweep --status " + out.string());
  INFO(status.output);
  CHECK(status.code == 0);
  CHECK_THAT(status.output, Contains("done") && Contains("incomplete") && Contains("2 runs: 1 done, 1 incomplete"));

  // Resuming skips the finished run and starts the stopped one again from scratch.
  const pid_t again = start_eipc(args, w.dir / "again.log");
  wait_for(out / "cli_full_dt1e-07.h5.partial");
  kill(again, SIGINT);
  CHECK(wait_exit_code(again) == 128 + SIGINT);
  const std::string log = read_text(w.dir / "again.log");
  INFO(log);
  CHECK_THAT(log, Contains("skip   cli_full_dt0.01") && Contains("start  cli_full_dt1e-07"));
  // The sweep passes its stop on to its tasks and their simulations as SIGTERM.
  CHECK_THAT(read_trajectory((out / "cli_full_dt1e-07.h5").string()).status_reason, Contains("SIGTERM"));
}

TEST_CASE("eipc sweep --reference-dt makes the missing references as runs of the sweep", "[cli][sweep]") {
  Workspace w;
  const std::string scene = w.scene(R"(, "embeddings": {"affine": "affine"})");
  const fs::path ref = w.dir / "ref";
  const fs::path out = w.dir / "sweep";
  // A reference that no sweep made is only read: affine's is made here, full's by the sweep.
  fs::create_directories(ref / "cli");
  const std::string affine_ref = (ref / "cli" / "affine.h5").string();
  REQUIRE(run_eipc("run " + scene + " --dt 0.005 --embedding affine --out " + affine_ref).code == 0);
  const std::string args = "sweep " + scene + " --dt 0.01,0.02 --embedding full,affine --no-certify " +
                           "--reference-dt 0.005 --out " + out.string() + " --reference " + ref.string();
  const auto stamp = fs::last_write_time(affine_ref);
  const Result r = run_eipc(args);
  INFO(r.output);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.output, Contains("start  reference " + (ref / "cli" / "full.h5").string()));
  CHECK(fs::last_write_time(affine_ref) == stamp);
  CHECK(read_trajectory((ref / "cli" / "full.h5").string()).header.dt == 0.005);
  const std::string table = read_text(out / "runs.csv");
  INFO(table);
  CHECK(std::count(table.begin(), table.end(), '\n') == 5);  // header + 4 runs: references are no rows
  const auto plan = nlohmann::json::parse(std::ifstream(out / "sweep-plan.json"));
  REQUIRE(plan["runs"].size() == 5);
  CHECK(plan["runs"][0]["kind"] == "reference");
  // Every run has an error now, against the reference the sweep made or the one given.
  const auto cells = [](const std::string& row) {
    std::vector<std::string> out(1);
    for (char c : row)
      if (c == ',')
        out.emplace_back();
      else
        out.back().push_back(c);
    return out;
  };
  const std::vector<std::string> header = cells(table.substr(0, table.find('\n')));
  const auto error_column = std::find(header.begin(), header.end(), "error") - header.begin();
  REQUIRE(error_column < static_cast<long>(header.size()));
  for (const char* line : {"cli,affine,0.01,", "cli,full,0.02,"}) {
    const std::string row = table.substr(table.find(line), table.find('\n', table.find(line)) - table.find(line));
    CHECK(!cells(row).at(static_cast<std::size_t>(error_column)).empty());
  }
  const Result again = run_eipc(args);
  CHECK(again.code == 0);
  CHECK_THAT(again.output, Contains("skip   reference"));
}
