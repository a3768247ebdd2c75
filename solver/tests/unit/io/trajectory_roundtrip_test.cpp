// Writing then reading a trajectory gives back every field exactly.
#include "eipc/io/trajectory_file.hpp"
#include "trajectory_fixture.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace eipc;
using eipc::test::ScratchDir;

namespace {

template <typename A, typename B>
bool same(const A& a, const B& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() && (a.array() == b.array()).all();
}

void check_header_equal(const TrajectoryHeader& a, const TrajectoryHeader& b) {
  CHECK(a.scenario == b.scenario);
  CHECK(a.scene_json == b.scene_json);
  CHECK(a.solver_json == b.solver_json);
  CHECK(a.contact_json == b.contact_json);
  CHECK(a.dt == b.dt);
  CHECK(a.duration == b.duration);
  CHECK(a.ground_height == b.ground_height);
  CHECK(a.code_version == b.code_version);
  CHECK(a.threads == b.threads);
  REQUIRE(a.bodies.size() == b.bodies.size());
  for (std::size_t i = 0; i < a.bodies.size(); ++i) {
    const TrajectoryBody& x = a.bodies[i];
    const TrajectoryBody& y = b.bodies[i];
    INFO("body " << x.name);
    CHECK(x.name == y.name);
    CHECK(x.embedding == y.embedding);
    CHECK(x.kinematic == y.kinematic);
    CHECK(same(x.rest, y.rest));
    CHECK(same(x.surface, y.surface));
    CHECK(same(x.tets, y.tets));
    REQUIRE(x.embedding_data.has_value() == y.embedding_data.has_value());
    if (x.embedding_data) {
      CHECK(same(x.embedding_data->vertices, y.embedding_data->vertices));
      CHECK(same(x.embedding_data->tets, y.embedding_data->tets));
      CHECK(same(x.embedding_data->vertex_tet, y.embedding_data->vertex_tet));
      CHECK(same(x.embedding_data->weights, y.embedding_data->weights));
    }
  }
}

void check_frame_equal(const Frame& a, const Frame& b) {
  CHECK(a.time == b.time);
  CHECK(a.step == b.step);
  CHECK(a.stats.newton_iterations == b.stats.newton_iterations);
  CHECK(a.stats.line_search_steps == b.stats.line_search_steps);
  CHECK(a.stats.wall_seconds == b.stats.wall_seconds);
  CHECK(a.stats.min_distance == b.stats.min_distance);
  CHECK(a.stats.active_pairs == b.stats.active_pairs);
  REQUIRE(a.positions.size() == b.positions.size());
  for (std::size_t i = 0; i < a.positions.size(); ++i) CHECK(same(a.positions[i], b.positions[i]));
  REQUIRE(a.pair_forces.size() == b.pair_forces.size());
  for (std::size_t i = 0; i < a.pair_forces.size(); ++i) {
    const BodyPairForce& x = a.pair_forces[i];
    const BodyPairForce& y = b.pair_forces[i];
    CHECK(x.body_a == y.body_a);
    CHECK(x.body_b == y.body_b);
    CHECK(same(x.normal, y.normal));
    CHECK(same(x.friction, y.friction));
    CHECK(x.pairs == y.pairs);
  }
}

std::string write_synthetic(const ScratchDir& dir, const std::string& name,
                            TrajectoryStatus status = TrajectoryStatus::complete,
                            const std::string& reason = "", const TrajectoryWriterOptions& options = {}) {
  const std::string path = dir.file(name);
  const TrajectoryHeader h = test::synthetic_header();
  TrajectoryWriter w(path, h, options);
  for (int i = 0; i < 3; ++i) w.append(test::synthetic_frame(h, i));
  CHECK(w.frames_written() == 3);
  w.finish(status, reason);
  return path;
}

}  // namespace

TEST_CASE("trajectory round trip keeps every field", "[io][trajectory]") {
  ScratchDir dir("traj_roundtrip");
  const std::string path = write_synthetic(dir, "run.h5");
  CHECK(std::filesystem::exists(path));
  CHECK_FALSE(std::filesystem::exists(trajectory_partial_path(path)));
  CHECK(std::filesystem::exists(dir.file("run.xdmf")));

  const TrajectoryHeader h = test::synthetic_header();
  const Trajectory t = read_trajectory(path);
  CHECK(t.status == TrajectoryStatus::complete);
  CHECK(t.status_reason.empty());
  check_header_equal(h, t.header);
  REQUIRE(t.frames.size() == 3);
  for (int i = 0; i < 3; ++i) {
    INFO("frame " << i);
    Frame expected = test::synthetic_frame(h, i);
    test::sort_pairs(expected);
    check_frame_equal(expected, t.frames[i]);
  }
  // The pair (0, 1) first appears in frame 2: frames 0 and 1 have no entry for it.
  CHECK(t.frames[0].pair_forces.empty());
  CHECK(t.frames[1].pair_forces.size() == 1);
  CHECK(t.frames[2].pair_forces.size() == 2);

  SECTION("header and single frames without loading everything") {
    check_header_equal(h, read_trajectory_header(path));
    check_frame_equal(t.frames[2], read_frame(path, 2));
    TrajectoryReader r(path);
    CHECK(r.frame_count() == 3);
    check_frame_equal(t.frames[1], r.read_frame(1));
    CHECK_THROWS_AS(r.read_frame(3), InputError);
    CHECK_THROWS_AS(r.read_frame(-1), InputError);
  }
}

TEST_CASE("an incomplete run reads fine and reports status and reason", "[io][trajectory]") {
  ScratchDir dir("traj_incomplete");
  const std::string reason = "Newton did not converge in 200 iterations at step 3";
  const std::string path = write_synthetic(dir, "failed.h5", TrajectoryStatus::incomplete, reason);
  TrajectoryReader r(path);
  CHECK(r.status() == TrajectoryStatus::incomplete);
  CHECK(r.status_reason() == reason);
  CHECK(r.frame_count() == 3);
  const Trajectory t = r.read_all();
  CHECK(t.status == TrajectoryStatus::incomplete);
  CHECK(t.status_reason == reason);
}

TEST_CASE("a run with no frames and no pair forces round-trips", "[io][trajectory]") {
  ScratchDir dir("traj_empty");
  const std::string path = dir.file("empty.h5");
  TrajectoryHeader h = test::synthetic_header();
  h.ground_height.reset();
  h.bodies[0].embedding_data.reset();
  h.bodies[0].embedding = "full";
  {
    TrajectoryWriter w(path, h);
    w.finish(TrajectoryStatus::incomplete, "failed before the first step");
  }
  const Trajectory t = read_trajectory(path);
  check_header_equal(h, t.header);
  CHECK(t.frames.empty());
  CHECK(t.status == TrajectoryStatus::incomplete);
}

TEST_CASE("the same trajectory written twice gives identical bytes", "[io][trajectory]") {
  // Where HDF5 places blocks depends on when frames are written, and a writer
  // flushes after flush_seconds of wall time: on a loaded machine one of the
  // two files could flush after its first frame. Without timed flushes the
  // bytes depend on the frames alone.
  ScratchDir dir("traj_determinism");
  TrajectoryWriterOptions options;
  options.flush_seconds = 1e9;
  const std::string a = write_synthetic(dir, "a.h5", TrajectoryStatus::complete, "", options);
  const std::string b = write_synthetic(dir, "b.h5", TrajectoryStatus::complete, "", options);
  CHECK(test::read_bytes(a) == test::read_bytes(b));
}

TEST_CASE("flushing after every frame gives the same data", "[io][trajectory]") {
  ScratchDir dir("traj_flush");
  const std::string path = dir.file("run.h5");
  const TrajectoryHeader h = test::synthetic_header();
  TrajectoryWriterOptions options;
  options.flush_seconds = 0.0;
  options.write_xdmf = false;
  TrajectoryWriter w(path, h, options);
  for (int i = 0; i < 3; ++i) w.append(test::synthetic_frame(h, i));
  w.finish(TrajectoryStatus::complete);
  CHECK_FALSE(std::filesystem::exists(dir.file("run.xdmf")));
  check_frame_equal(test::synthetic_frame(h, 1), read_frame(path, 1));
}

TEST_CASE("frames written in background batches read back in order", "[io][trajectory]") {
  // 150 frames: two batches of 64 written in the background while frames are
  // still appended, the rest at finish().
  ScratchDir dir("traj_batches");
  const TrajectoryHeader h = test::synthetic_header();
  const std::string path = test::write_complete(dir, "run.h5", 150);
  for (int i : {0, 63, 64, 127, 128, 149}) check_frame_equal(test::synthetic_frame(h, i), read_frame(path, i));
  // Destroyed without finish() while a batch may still be in flight: only
  // the partial file is left, and it closes cleanly.
  const std::string killed = dir.file("killed.h5");
  {
    TrajectoryWriter w(killed, h);
    for (int i = 0; i < 70; ++i) w.append(test::synthetic_frame(h, i));
  }
  CHECK_FALSE(std::filesystem::exists(killed));
  CHECK(std::filesystem::exists(trajectory_partial_path(killed)));
}
