// The library run loop: frames to sinks at the output stride, targets for
// prescribed nodes set between steps, the end of a run and a failed step.
#include <catch2/catch.hpp>

#include "../cli/cli_test_helpers.hpp"
#include "eipc/io/trajectory_file.hpp"
#include "eipc/simulation/simulation.hpp"

#include <Eigen/Geometry>

#include <cmath>

namespace eipc {
namespace {

/// Keeps what it is sent.
struct RecordingSink : FrameSink {
  std::vector<Frame> frames;
  std::optional<TrajectoryStatus> status;
  std::string reason;
  void append(const Frame& f) override { frames.push_back(f); }
  void finish(TrajectoryStatus s, const std::string& r) override {
    status = s;
    reason = r;
  }
};

/// The CLI tests' two-cube scene; the first cube's top layer of vertices is prescribed
/// and, by its keyframes, stays where it is.
Scene two_cubes(const test::Workspace& w, const std::string& root_extra = "") {
  const std::string prescribed = R"(, "prescribed": [{"vertices": {"box": [[-1, -1, 0.105], [1, 1, 1]]},
                                     "motion": [{"t": 0, "translation": [0, 0, 0]}]}])";
  return load_scene(w.scene(prescribed, root_extra));
}

}  // namespace

TEST_CASE("Simulation sends frame 0, every stride-th step and the last step, then finishes", "[simulation]") {
  test::Workspace w;
  Scene scene = two_cubes(w, R"("duration": 0.05, "output": {"every": 0.02},)");
  REQUIRE(scene.steps == 5);
  REQUIRE(scene.output_stride == 2);
  Simulation sim(std::move(scene), 1);
  RecordingSink sink;
  sim.add_sink(sink);
  REQUIRE(sink.frames.size() == 1);
  CHECK(sink.frames[0].step == 0);
  sim.run();
  CHECK(sim.finished());
  CHECK(!sim.summary().failed);
  CHECK(sim.summary().steps == 5);
  std::vector<long> steps;
  for (const Frame& f : sink.frames) steps.push_back(f.step);
  CHECK(steps == std::vector<long>{0, 2, 4, 5});
  REQUIRE(sink.status == TrajectoryStatus::complete);
  CHECK_THROWS_AS(sim.step(), std::logic_error);
  CHECK_THROWS_AS(sim.add_sink(sink), std::logic_error);
}

TEST_CASE("Simulation moves prescribed nodes to targets set between steps", "[simulation]") {
  test::Workspace w;
  Simulation sim(two_cubes(w, R"("duration": 0.1, "gravity": [0, 0, 0],)"), 1);
  const int a = sim.body_index("a");
  CHECK_THROWS_AS(sim.body_index("nobody"), InputError);
  const Positions rest = sim.stepper().prescribed_targets(a, 0.0);
  REQUIRE(rest.rows() > 0);
  sim.step();
  // Lift the prescribed layer by 2 mm: after the next step the nodes are there exactly.
  Positions lifted = rest;
  lifted.col(2).array() += 0.002;
  sim.set_prescribed_targets(a, lifted);
  sim.step();
  const TimeStepper& stepper = sim.stepper();
  const DofSystem& sys = stepper.system();
  int k = 0;
  for (const PrescribedNode& p : sys.prescribed()) {
    if (p.body != a) continue;
    CHECK((stepper.nodes().row(p.node) - lifted.row(k)).norm() == 0.0);
    ++k;
  }
  CHECK(k == lifted.rows());
  // A rigid transform of the rest positions: a quarter turn about z and a shift.
  const Mat3 R = Eigen::AngleAxisd(M_PI / 2, Vec3::UnitZ()).toRotationMatrix();
  sim.set_prescribed_transform(a, R, Vec3(0, 0, 0.003));
  const Positions turned = sim.stepper().prescribed_targets(a, sim.time());
  const Vec3 pivot = sys.bodies()[a].pivot;
  for (Eigen::Index i = 0; i < rest.rows(); ++i) {
    const Vec3 expected = R * (rest.row(i).transpose() - pivot) + pivot + Vec3(0, 0, 0.003);
    CHECK((turned.row(i).transpose() - expected).norm() < 1e-15);
  }
  CHECK_THROWS_AS(sim.set_prescribed_targets(a, lifted.topRows(1)), std::invalid_argument);
  CHECK_THROWS_AS(sim.set_prescribed_targets(sim.body_index("b"), lifted), std::invalid_argument);
}

TEST_CASE("After a jump of its prescribed nodes a body starts where the last matrix puts it", "[simulation]") {
  // Lifted steadily, each step's first direction comes from the last matrix (a
  // chord): no factorisation. Then cube a's top layer jumps 2 mm more in one
  // step (a keyframe that changes velocity). Its free nodes start at the last
  // matrix's answer to that jump instead of where their old velocity takes
  // them (the top layer 2 mm from the rest): nearly linear here, so the chord
  // from there already passes the stopping test. From the old start it took
  // two directions and a fresh matrix.
  test::Workspace w;
  Simulation sim(two_cubes(w, R"("duration": 0.1, "gravity": [0, 0, 0],)"), 1);
  const int a = sim.body_index("a");
  Positions lifted = sim.stepper().prescribed_targets(a, sim.time());
  for (int k = 0; k < 6; ++k) {
    lifted.col(2).array() += 1e-4;  // 0.01 m/s
    sim.set_prescribed_targets(a, lifted);
    const StepStats stats = sim.step();
    INFO("step " << k);
    if (k >= 3) CHECK(stats.factorizations == 0);
  }
  lifted.col(2).array() += 0.002;
  sim.set_prescribed_targets(a, lifted);
  const StepStats jump = sim.step();
  CHECK(jump.newton_iterations == 1);
  CHECK(jump.factorizations == 0);
}

TEST_CASE("A failed step finishes the sinks as incomplete with the last state and the reason", "[simulation]") {
  test::Workspace w;
  // One Newton iteration cannot land a falling cube on the ground.
  Scene scene = two_cubes(w, R"("duration": 0.5, "solver": {"max_newton_iters": 1}, "output": {"every": 0.1},)");
  Simulation sim(std::move(scene), 1);
  RecordingSink sink;
  sim.add_sink(sink);
  const std::string out = (w.dir / "failed.h5").string();
  TrajectorySink file(out, sim.header());
  sim.add_sink(file);
  CHECK_THROWS_AS(
      [&] {
        while (true) sim.step();
      }(),
      SolverFailure);
  CHECK(sim.finished());
  REQUIRE(sink.status == TrajectoryStatus::incomplete);
  CHECK(sink.reason.rfind("step " + std::to_string(sim.step_index() + 1) + ": ", 0) == 0);
  CHECK(sink.frames.back().step == sim.step_index());
  const Trajectory t = read_trajectory(out);
  CHECK(t.status == TrajectoryStatus::incomplete);
  CHECK(t.status_reason == sink.reason);
  CHECK(t.frames.back().step == sim.step_index());
}

}  // namespace eipc

namespace eipc {

TEST_CASE("A stop request ends the run before the next step: incomplete, interrupted, with its reason",
          "[simulation]") {
  test::Workspace w;
  Simulation sim(load_scene(w.scene("", R"("duration": 0.05,)")), 1);
  RecordingSink sink;
  sim.add_sink(sink);
  sim.set_stop_check([&]() -> std::optional<std::string> {
    if (sim.step_index() == 2) return std::string("a test");
    return std::nullopt;
  });
  const RunSummary& summary = sim.run();
  CHECK(summary.failed);
  CHECK(summary.interrupted);
  CHECK(summary.steps == 2);
  CHECK(summary.reason == "step 3: interrupted by a test before the step");
  REQUIRE(sink.status == TrajectoryStatus::incomplete);
  CHECK(sink.reason == summary.reason);
  CHECK(sink.frames.back().step == 2);
}

}  // namespace eipc

namespace eipc {

TEST_CASE("A stop request is asked between Newton iterations: a struggling step ends within one", "[simulation]") {
  test::Workspace w;
  // newton_tol 1e-300 is never met: the first step iterates until it is stopped.
  Simulation sim(load_scene(w.scene("", R"("duration": 0.05,)"),
                            {std::nullopt, std::nullopt, std::nullopt,
                             {"solver.newton_tol=1e-300", "solver.max_newton_iters=100000"}}),
                 1);
  RecordingSink sink;
  sim.add_sink(sink);
  int asked = 0;
  sim.set_stop_check([&]() -> std::optional<std::string> {
    if (++asked == 6) return std::string("a test");  // once before the step, then each iteration
    return std::nullopt;
  });
  const RunSummary& summary = sim.run();
  CHECK(summary.interrupted);
  CHECK(summary.steps == 0);
  CHECK(summary.reason == "step 1: interrupted by a test during Newton iteration 5 at t = 0.010000 s");
  CHECK(sink.status == TrajectoryStatus::incomplete);
  CHECK(sink.frames.size() == 1);
}

}  // namespace eipc
