// Unfinished, truncated, corrupted and foreign files are rejected with InputError;
// bad writer input is refused before anything reaches the file.
#include "eipc/io/trajectory_file.hpp"
#include "trajectory_fixture.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace eipc;
using Catch::Matchers::Contains;
using eipc::test::ScratchDir;

TEST_CASE("a writer that is never finished leaves nothing at the target path", "[io][trajectory]") {
  ScratchDir dir("traj_unfinished");
  const std::string path = dir.file("run.h5");
  const TrajectoryHeader h = test::synthetic_header();
  {
    TrajectoryWriter w(path, h);
    w.append(test::synthetic_frame(h, 0));
    w.append(test::synthetic_frame(h, 1));
    CHECK(std::filesystem::exists(w.partial_path()));
  }
  CHECK_FALSE(std::filesystem::exists(path));
  CHECK_FALSE(std::filesystem::exists(dir.file("run.xdmf")));
  const std::string partial = trajectory_partial_path(path);
  REQUIRE(std::filesystem::exists(partial));
  // The partial file is a valid HDF5 file, but without status it is never read as valid.
  const std::string msg = test::read_error(partial);
  CHECK_THAT(msg, Contains(partial) && Contains("status"));
}

TEST_CASE("an exception before finish keeps the previous complete file intact", "[io][trajectory]") {
  ScratchDir dir("traj_exception");
  const std::string path = test::write_complete(dir, "run.h5", 2);
  const TrajectoryHeader h = test::synthetic_header();
  try {
    TrajectoryWriter w(path, h);
    for (int i = 0; i < 3; ++i) w.append(test::synthetic_frame(h, i));
    throw std::runtime_error("solver blew up");
  } catch (const std::runtime_error&) {
  }
  // The old run is still there, untouched: 2 frames, complete.
  TrajectoryReader r(path);
  CHECK(r.frame_count() == 2);
  CHECK(r.status() == TrajectoryStatus::complete);
}

TEST_CASE("truncated files are reported, never read as valid", "[io][trajectory]") {
  ScratchDir dir("traj_truncated");
  const std::string path = test::write_complete(dir, "run.h5");
  const std::string bytes = test::read_bytes(path);
  REQUIRE(bytes.size() > 1000);
  const std::string cut = dir.file("cut.h5");
  // Every length from empty to one byte short, in 40 steps, plus the last few bytes.
  std::vector<std::size_t> lengths;
  for (int k = 0; k < 40; ++k) lengths.push_back(bytes.size() * k / 40);
  for (std::size_t k = 1; k <= 8; ++k) lengths.push_back(bytes.size() - k);
  for (std::size_t n : lengths) {
    INFO("truncated to " << n << " of " << bytes.size() << " bytes");
    test::write_bytes(cut, bytes.substr(0, n));
    CHECK_THAT(test::read_error(cut), Contains(cut));
  }
}

TEST_CASE("a file that is not HDF5 or does not exist is an InputError", "[io][trajectory]") {
  ScratchDir dir("traj_garbage");
  const std::string path = dir.file("garbage.h5");
  test::write_bytes(path, std::string(4096, 'x'));
  CHECK_THAT(test::read_error(path), Contains(path) && Contains("HDF5"));
  CHECK_THAT(test::read_error(dir.file("missing.h5")), Contains("missing.h5"));
  // The HDF5 signature wiped: the library cannot find the superblock.
  std::string bytes = test::read_bytes(test::write_complete(dir, "run.h5"));
  bytes.replace(0, 8, "NOTHDF5!");
  test::write_bytes(path, bytes);
  CHECK_THAT(test::read_error(path), Contains(path));
}

TEST_CASE("a wrong format attribute is an InputError naming it", "[io][trajectory]") {
  ScratchDir dir("traj_format");
  const std::string path = test::write_complete(dir, "run.h5");
  std::string bytes = test::read_bytes(path);
  // The format string lives once in the file (a variable-length string on the heap):
  // patch it in place to another string of the same length.
  const std::string format = trajectory_schema::format;
  const auto at = bytes.find(format);
  REQUIRE(at != std::string::npos);
  REQUIRE(bytes.find(format, at + 1) == std::string::npos);
  bytes.replace(at, format.size(), "xxxx-trajectory");
  const std::string patched = dir.file("patched.h5");
  test::write_bytes(patched, bytes);
  CHECK_THAT(test::read_error(patched), Contains(patched) && Contains("'format'") && Contains("xxxx-trajectory"));
}

TEST_CASE("the writer refuses inconsistent headers and frames", "[io][trajectory]") {
  ScratchDir dir("traj_badinput");
  const std::string path = dir.file("run.h5");
  TrajectoryHeader h = test::synthetic_header();

  SECTION("body names that cannot name a group, or repeat") {
    for (std::string bad : {"", "a/b", ".", ".."}) {
      TrajectoryHeader g = h;
      g.bodies[0].name = bad;
      CHECK_THROWS_AS(TrajectoryWriter(path, g), InputError);
    }
    TrajectoryHeader g = h;
    g.bodies[1].name = g.bodies[0].name;
    CHECK_THROWS_AS(TrajectoryWriter(path, g), InputError);
  }
  SECTION("indices out of range name the dataset") {
    TrajectoryHeader g = h;
    g.bodies[0].surface(1, 2) = 5;
    CHECK_THROWS_WITH(TrajectoryWriter(path, g), Contains("/bodies/cube/surface_triangles"));
    g = h;
    g.bodies[0].embedding_data->vertex_tet(4) = 1;
    CHECK_THROWS_WITH(TrajectoryWriter(path, g), Contains("/bodies/cube/embedding/vertex_tet"));
    g = h;
    g.bodies[0].embedding_data->weights.resize(4, 4);
    CHECK_THROWS_WITH(TrajectoryWriter(path, g), Contains("/bodies/cube/embedding/weights"));
  }
  SECTION("frames that do not match the header") {
    TrajectoryWriter w(path, h);
    Frame f = test::synthetic_frame(h, 1);
    f.positions.pop_back();
    CHECK_THROWS_AS(w.append(f), std::invalid_argument);
    f = test::synthetic_frame(h, 1);
    f.positions[0].conservativeResize(4, 3);
    CHECK_THROWS_AS(w.append(f), std::invalid_argument);
    f = test::synthetic_frame(h, 1);
    f.pair_forces.push_back(f.pair_forces[0]);
    CHECK_THROWS_AS(w.append(f), std::invalid_argument);
    f = test::synthetic_frame(h, 1);
    f.pair_forces[0].body_b = 2;
    CHECK_THROWS_AS(w.append(f), std::invalid_argument);
    f = test::synthetic_frame(h, 1);
    f.pair_forces[0].body_a = -1;
    CHECK_THROWS_AS(w.append(f), std::invalid_argument);
    w.append(test::synthetic_frame(h, 1));
    CHECK_THROWS_AS(w.append(test::synthetic_frame(h, 1)), std::invalid_argument);  // step repeats
    w.finish(TrajectoryStatus::complete);
    CHECK_THROWS_AS(w.append(test::synthetic_frame(h, 2)), std::logic_error);
    CHECK_THROWS_AS(w.finish(TrajectoryStatus::complete), std::logic_error);
    // Only the one good frame reached the file.
    CHECK(TrajectoryReader(path).frame_count() == 1);
  }
}
