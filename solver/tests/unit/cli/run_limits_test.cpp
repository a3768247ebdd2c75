// `eipc run` under limits and faults: --max-wall ends a long run cleanly (exit 3,
// trajectory kept and marked incomplete), and a run killed with SIGKILL leaves
// nothing that reads as a complete trajectory.
#include "cli_test_helpers.hpp"
#include "eipc/io/trajectory_file.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <thread>

using namespace eipc;
using namespace eipc::test;
using Catch::Matchers::Contains;

TEST_CASE("eipc run --max-wall stops a long run with exit 3 and keeps the trajectory", "[cli]") {
  Workspace w;
  const std::string out = (w.dir / "long.h5").string();
  // 10,000 s of simulated time at dt = 0.01 (a million steps) cannot finish in 0.5 s
  // (100 s did, once the two resting cubes cost ~40 us a step).
  const auto start = std::chrono::steady_clock::now();
  const Result r = run_eipc("run " + w.scene("", R"("output": {"every": 0.05},)") + " --duration 10000 --max-wall 0.5 --json --out " + out);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  INFO(r.output);
  CHECK(r.code == 3);
  CHECK_THAT(r.output, Contains("--max-wall 0.5 s exceeded"));
  CHECK(wall < 30);  // loading and writing included; the run itself stopped at 0.5 s
  const Trajectory t = read_trajectory(out);
  CHECK(t.status == TrajectoryStatus::incomplete);
  CHECK_THAT(t.status_reason, Contains("wall-time limit"));
  REQUIRE(t.frames.size() >= 1);
  CHECK(t.frames.back().time < 10000);
  // Frames every 5 steps, plus the last completed step wherever the run stopped.
  for (std::size_t i = 1; i + 1 < t.frames.size(); ++i) CHECK(t.frames[i].step % 5 == 0);
  for (std::size_t i = 1; i < t.frames.size(); ++i) CHECK(t.frames[i].step > t.frames[i - 1].step);
}

TEST_CASE("eipc run rejects a non-positive or absurd --max-wall as a usage error", "[cli]") {
  Workspace w;
  for (const char* bad : {"0", "-1", "1e300"}) {
    const Result r = run_eipc("run " + w.scene() + " --max-wall " + bad);
    INFO(bad << ": " << r.output);
    CHECK(r.code == 2);
    CHECK_THAT(r.output, Contains("--max-wall"));
  }
}

TEST_CASE("a run killed with SIGKILL leaves only a partial file that never reads as complete", "[cli]") {
  Workspace w;
  const std::string scene = w.scene();
  const std::string out = (w.dir / "killed.h5").string();
  const std::string partial = trajectory_partial_path(out);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execl(EIPC_BINARY, EIPC_BINARY, "run", scene.c_str(), "--duration", "1000", "--out", out.c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  // Wait until the run has created its file and stepped for a second, then kill it without warning.
  for (int i = 0; i < 600 && !fs::exists(partial); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::this_thread::sleep_for(std::chrono::seconds(1));
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(partial, ec);
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  REQUIRE(WIFSIGNALED(status));
  INFO("partial file " << size << " bytes at the kill");
  CHECK_FALSE(fs::exists(out));
  CHECK_FALSE(fs::exists(w.dir / "killed.xdmf"));
  REQUIRE(fs::exists(partial));
  try {
    read_trajectory(partial);
    FAIL("the partial file of a killed run was read as valid");
  } catch (const InputError& e) {
    // Either "status is missing: the run never finished (a partial or truncated file)" or,
    // if HDF5 metadata was cut mid-write, "not a readable HDF5 file (truncated or corrupted?)".
    CHECK_THAT(e.what(), Contains(partial) && Contains("truncated"));
  }
  const Result certify = run_eipc("certify " + partial);
  INFO(certify.output);
  CHECK(certify.code == 2);
}
