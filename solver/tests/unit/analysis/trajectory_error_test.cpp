// E(h) on synthetic trajectories whose error is known in closed form, and every
// refusal: step ratio, missing reference frames, body and vertex mismatches, incomplete files.
#include "../io/trajectory_fixture.hpp"
#include "eipc/analysis/trajectory_error.hpp"

#include <catch2/catch.hpp>

#include <functional>

using namespace eipc;
using eipc::test::ScratchDir;

namespace {

/// Body "cube" (5 vertices, deformable) and "floor" (4 vertices, kinematic).
TrajectoryHeader header(double dt, double duration) {
  TrajectoryHeader h = test::synthetic_header();
  h.bodies[1].name = "floor";
  h.dt = dt;
  h.duration = duration;
  return h;
}

using Displace = std::function<void(long step, std::vector<Positions>&)>;

/// Frames at steps 0, every, 2*every, ... up to last_step; positions = rest + displace(step).
std::string write(const ScratchDir& dir, const std::string& name, double dt, long last_step, long every,
                  const Displace& displace, TrajectoryStatus status = TrajectoryStatus::complete,
                  const TrajectoryHeader* custom = nullptr) {
  const TrajectoryHeader h = custom ? *custom : header(dt, last_step * dt);
  TrajectoryWriter w(dir.file(name), h);
  for (long s = 0; s <= last_step; s += every) {
    Frame f;
    f.step = s;
    f.time = s * dt;
    for (const TrajectoryBody& b : h.bodies) f.positions.push_back(b.rest);
    displace(s, f.positions);
    w.append(f);
  }
  w.finish(status, status == TrajectoryStatus::complete ? "" : "step 9: line search failed");
  return dir.file(name);
}

const double a = 1e-3;

/// Run: vertex 0 of the cube off by (3a, 4a, 0) * step; the floor off by 1 m (kinematic, ignored).
void run_offsets(long step, std::vector<Positions>& x) {
  x[0].row(0) += Eigen::RowVector3d(3 * a, 4 * a, 0) * double(step);
  x[1].array() += 1.0;
}

/// Reference: exact rest positions on the even steps, garbage on the odd ones (never matched).
void reference_offsets(long step, std::vector<Positions>& x) {
  if (step % 2) x[0].array() += 100.0;
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("E(h) of a run storing every step matches the closed form", "[analysis]") {
  ScratchDir dir("error");
  const std::string ref = write(dir, "ref.h5", 0.01, 10, 1, reference_offsets);
  const std::string run = write(dir, "run.h5", 0.02, 5, 1, run_offsets);
  const TrajectoryError e = trajectory_error(run, ref);
  // Frame i: ||d||^2 = 25 a^2 i^2 on one of 5 vertices -> 5 a^2 i^2 per vertex; mean over i = 1..5 is 55 a^2.
  CHECK(e.error == Approx(a * std::sqrt(55.0)).epsilon(1e-12));
  CHECK(e.frames == 5);
  CHECK(e.vertices == 5);
  CHECK(e.step_ratio == 2);
  CHECK(e.first_time == Approx(0.02));
  CHECK(e.last_time == Approx(0.1));
  CHECK(e.worst_time == Approx(0.1));
  CHECK(e.worst_error == Approx(5 * a * 5 / std::sqrt(5.0)));
  REQUIRE(e.bodies.size() == 1);
  CHECK(e.bodies[0].name == "cube");
}

TEST_CASE("E(h) averages over the stored run frames only", "[analysis]") {
  ScratchDir dir("error");
  const std::string ref = write(dir, "ref.h5", 0.01, 12, 1, reference_offsets);
  // Stored every 2nd step of 0.02 s: steps 2, 4, 6 -> frames at i = 2, 4, 6 enter, normalised by 3.
  const std::string run = write(dir, "run.h5", 0.02, 6, 2, run_offsets);
  const TrajectoryError e = trajectory_error(run, ref);
  CHECK(e.frames == 3);
  CHECK(e.error == Approx(a * std::sqrt(5.0 * (4 + 16 + 36) / 3.0)).epsilon(1e-12));
}

TEST_CASE("E(h) over named bodies concatenates their vertices", "[analysis]") {
  ScratchDir dir("error");
  const std::string ref = write(dir, "ref.h5", 0.01, 4, 1, reference_offsets);
  const std::string run = write(dir, "run.h5", 0.01, 4, 1, [](long step, std::vector<Positions>& x) {
    if (step % 2) x[0].array() += 100.0;  // the reference's odd frames, matched exactly
    x[1].col(2).array() += 0.5;           // the kinematic floor: 0.5 m off on each of its 4 vertices
  });
  CHECK(trajectory_error(run, ref).error == 0.0);  // default: the floor is kinematic, not compared
  ErrorOptions floor_only;
  floor_only.bodies = {"floor"};
  CHECK(trajectory_error(run, ref, floor_only).error == Approx(0.5).epsilon(1e-14));
  ErrorOptions both;
  both.bodies = {"cube", "floor"};
  const TrajectoryError e = trajectory_error(run, ref, both);
  CHECK(e.vertices == 9);
  CHECK(e.error == Approx(std::sqrt(4 * 0.25 / 9)).epsilon(1e-14));
  REQUIRE(e.bodies.size() == 2);
  CHECK(e.bodies[0].error == 0.0);
  CHECK(e.bodies[1].error == Approx(0.5));
}

TEST_CASE("E(h) refuses grids, bodies and files it cannot compare", "[analysis]") {
  ScratchDir dir("error");
  const auto none = [](long, std::vector<Positions>&) {};
  const std::string ref = write(dir, "ref.h5", 0.01, 10, 1, none);

  const std::string odd_dt = write(dir, "odd_dt.h5", 0.015, 4, 1, none);
  CHECK_THAT(message_of([&] { trajectory_error(odd_dt, ref); }), Catch::Contains("not an integer multiple"));

  const std::string sparse_ref = write(dir, "sparse_ref.h5", 0.01, 12, 3, none);
  const std::string run = write(dir, "run.h5", 0.02, 5, 1, none);
  CHECK_THAT(message_of([&] { trajectory_error(run, sparse_ref); }),
             Catch::Contains("does not store t = 0.02 s") && Catch::Contains("sparse_ref.h5"));

  const std::string long_run = write(dir, "long_run.h5", 0.02, 6, 1, none);
  CHECK_THAT(message_of([&] { trajectory_error(long_run, ref); }), Catch::Contains("no reference frame at t = 0.12"));

  ErrorOptions missing;
  missing.bodies = {"teapot"};
  CHECK_THAT(message_of([&] { trajectory_error(run, ref, missing); }), Catch::Contains("no body 'teapot'"));

  TrajectoryHeader fewer = header(0.02, 0.1);
  fewer.bodies[1].rest.conservativeResize(3, 3);
  fewer.bodies[1].surface.conservativeResize(1, 3);
  fewer.bodies[0].kinematic = true;  // nothing left to compare by default
  const std::string small = write(dir, "small.h5", 0.02, 5, 1, none, TrajectoryStatus::complete, &fewer);
  ErrorOptions floor;
  floor.bodies = {"floor"};
  CHECK_THAT(message_of([&] { trajectory_error(small, ref, floor); }),
             Catch::Contains("has 3 vertices") && Catch::Contains("but 4 in the reference"));
  CHECK_THAT(message_of([&] { trajectory_error(small, ref); }), Catch::Contains("no non-kinematic body"));

  TrajectoryHeader moved = header(0.02, 0.1);
  moved.bodies[0].rest(2, 1) += 1e-3;
  const std::string other = write(dir, "other.h5", 0.02, 5, 1, none, TrajectoryStatus::complete, &moved);
  CHECK_THAT(message_of([&] { trajectory_error(other, ref); }), Catch::Contains("rest vertices differ"));

  const std::string broken = write(dir, "broken.h5", 0.02, 4, 1, run_offsets, TrajectoryStatus::incomplete);
  CHECK_THAT(message_of([&] { trajectory_error(broken, ref); }),
             Catch::Contains("incomplete") && Catch::Contains("--allow-incomplete"));
  ErrorOptions allow;
  allow.allow_incomplete = true;
  const TrajectoryError e = trajectory_error(broken, ref, allow);
  CHECK(e.frames == 4);
  CHECK(e.error == Approx(a * std::sqrt(5.0 * (1 + 4 + 9 + 16) / 4.0)).epsilon(1e-12));

  const std::string only_start = write(dir, "only_start.h5", 0.02, 0, 1, none);
  CHECK_THAT(message_of([&] { trajectory_error(only_start, ref); }), Catch::Contains("no stored frame after t = 0"));
}

TEST_CASE("E(h) of a stopped run leaves out its last, off-grid frame", "[analysis]") {
  ScratchDir dir("error");
  const auto none = [](long, std::vector<Positions>&) {};
  // Reference every other step of dt 0.01; the run stored steps 0, 2, 4 and then
  // stopped after step 5 (kept as its last frame, off the grid).
  const std::string ref = write(dir, "ref.h5", 0.01, 10, 2, none);
  const TrajectoryHeader h = header(0.01, 0.1);
  {
    TrajectoryWriter w(dir.file("stopped.h5"), h);
    for (long s : {0L, 2L, 4L, 5L}) {
      Frame f;
      f.step = s;
      f.time = s * 0.01;
      for (const TrajectoryBody& b : h.bodies) f.positions.push_back(b.rest);
      run_offsets(s, f.positions);
      w.append(f);
    }
    w.finish(TrajectoryStatus::incomplete, "step 6: Newton did not converge");
  }
  ErrorOptions allow;
  allow.allow_incomplete = true;
  const TrajectoryError e = trajectory_error(dir.file("stopped.h5"), ref, allow);
  CHECK(e.frames == 2);
  CHECK(e.last_time == Approx(0.04));
  // Vertex 0 of 5 off by 5 a per step at steps 2 and 4.
  CHECK(e.error == Approx(a * std::sqrt(25.0 * (4 + 16) / 2.0 / 5.0)).epsilon(1e-12));
  // An off-grid frame inside a run is still refused.
  const std::string odd = write(dir, "odd.h5", 0.01, 5, 1, none);
  CHECK_THAT(message_of([&] { trajectory_error(odd, ref); }), Catch::Contains("does not store t = 0.01"));
}
