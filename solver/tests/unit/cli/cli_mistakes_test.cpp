// The command line's answers to the usual mistakes (issue 42): no subcommand, a
// misspelt option, an output path that cannot be written, Ctrl-C in a long step.
#include "cli_test_helpers.hpp"
#include "eipc/io/trajectory_file.hpp"
#include "eipc/io/trajectory_writer.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <thread>

using namespace eipc;
using namespace eipc::test;
using Catch::Matchers::Contains;

namespace {

void check_bad(const Result& r, const std::string& expected) {
  INFO(r.output);
  CHECK(r.code == 2);
  CHECK_THAT(r.output, Contains(expected) && !Contains("internal error"));
}

/// Every file under `dir` whose name ends in ".partial".
std::vector<std::string> partial_files(const fs::path& dir) {
  std::vector<std::string> found;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.path().string().size() >= 8 && e.path().string().rfind(".partial") == e.path().string().size() - 8)
      found.push_back(e.path().string());
  return found;
}

}  // namespace

TEST_CASE("eipc without a subcommand lists them; --version names the version", "[cli]") {
  const Result none = run_eipc("");
  CHECK(none.code == 2);
  CHECK_THAT(none.output, Contains("Subcommands:") && Contains("run") && Contains("certify") && Contains("sweep"));
  const Result version = run_eipc("--version");
  CHECK(version.code == 0);
  CHECK_THAT(version.output, Contains("eipc " EIPC_VERSION));
}

TEST_CASE("unexpected arguments are named in the order given, with the likely intended option", "[cli]") {
  Workspace w;
  check_bad(run_eipc("run " + w.scene() + " --first 1 --embeding low --last"),
            "unexpected argument(s): --first 1 --embeding low --last (did you mean '--embedding'?) "
            "(see eipc run --help)");
}

TEST_CASE("eipc run checks --out before any work and never leaves a partial file", "[cli]") {
  Workspace w;
  const std::string scene = w.scene();
  fs::create_directories(w.dir / "existing");
  check_bad(run_eipc("run " + scene + " --out " + (w.dir / "existing").string()), "names a directory");
  check_bad(run_eipc("run " + scene + " --out " + (w.dir / "slash").string() + "/"), "names a directory");
  check_bad(run_eipc("run " + scene + " --out " + scene + "/under_a_file.h5"), "cannot create the directory");
  CHECK(partial_files(w.dir).empty());
  // Missing directories are made.
  const fs::path nested = w.dir / "new" / "deeper" / "run.h5";
  const Result made = run_eipc("run " + scene + " --out " + nested.string());
  INFO(made.output);
  CHECK(made.code == 0);
  CHECK(read_trajectory(nested.string()).status == TrajectoryStatus::complete);
  // The library's writer checks the same, so every program writing trajectories does.
  CHECK_THROWS_AS(TrajectoryWriter((w.dir / "existing").string(), read_trajectory(nested.string()).header), InputError);
  check_bad(run_eipc("embed " + (w.dir / "cube.msh").string() + " --vertices 8 --out " + (w.dir / "emb.vtk").string()),
            "give a file name ending in .msh");
}

TEST_CASE("SIGINT stops a struggling step within a Newton iteration: exit 3, 'interrupted', trajectory kept",
          "[cli]") {
  Workspace w;
  const std::string out = (w.dir / "interrupted.h5").string();
  // newton_tol 1e-300 is never met: the first step iterates until it is stopped.
  const std::string scene = w.scene();
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const int log = open((w.dir / "log.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(log, 1);
    dup2(log, 2);
    execl(EIPC_BINARY, EIPC_BINARY, "run", scene.c_str(), "--set", "solver.newton_tol=1e-300", "--set",
          "solver.max_newton_iters=100000000", "--out", out.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  const std::string partial = trajectory_partial_path(out);
  for (int i = 0; i < 600 && !fs::exists(partial); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // well into the first step's iterations
  const auto sent = std::chrono::steady_clock::now();
  kill(child, SIGINT);
  int status = 0;
  waitpid(child, &status, 0);
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
  std::ifstream log_file(w.dir / "log.txt");
  const std::string log((std::istreambuf_iterator<char>(log_file)), std::istreambuf_iterator<char>());
  INFO(log);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 3);
  CHECK(waited < 2.0);  // an iteration of two 8-tet cubes takes well under a millisecond
  CHECK_THAT(log, Contains("interrupted: step 1: interrupted by SIGINT during Newton iteration"));
  CHECK_THAT(log, !Contains("did not converge") && !Contains("solver failed"));
  const Trajectory t = read_trajectory(out);
  CHECK(t.status == TrajectoryStatus::incomplete);
  CHECK_THAT(t.status_reason, Contains("interrupted by SIGINT"));
  CHECK(t.frames.size() == 1);  // frame 0: the stopped step is not stored
}
