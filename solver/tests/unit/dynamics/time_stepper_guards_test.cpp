// Failure guards of TimeStepper::step: a non-finite energy fails the step with
// SolverFailure (state unchanged, never NaN), and a passed wall-clock deadline
// stops a step with WallTimeExceeded.
#include "eipc/dynamics/time_stepper.hpp"
#include "eipc/testing/box_mesh.hpp"
#include "eipc/mesh/surface.hpp"

#include <catch2/catch.hpp>

using namespace eipc;
using Catch::Matchers::Contains;

namespace {

Body cube(const Vec3& velocity) {
  const TetMesh m = box_tet_mesh(Vec3(0, 0, 0.01), Vec3(0.1, 0.1, 0.11), 1, 1, 1);
  Body b = make_full_space_body("cube", m.vertices, m.tets, boundary_faces(m.tets), Material{});
  b.initial_velocity = velocity;
  return b;
}

}  // namespace

TEST_CASE("a step whose energy overflows fails with SolverFailure and keeps the state", "[dynamics]") {
  SimulationParams p;
  p.dt = 0.01;
  // |q - q~| = h |v| = 1e298 m: the inertia term 1/2 m |q - q~|^2 overflows to inf.
  TimeStepper sim({cube(Vec3(0, 0, 1e300))}, p);
  const Positions before = sim.nodes();
  try {
    sim.step();
    FAIL("step() accepted a non-finite energy");
  } catch (const SolverFailure& e) {
    CHECK_THAT(e.what(), Contains("non-finite"));
  }
  CHECK(sim.step_index() == 0);
  CHECK(sim.nodes() == before);
  CHECK(sim.nodes().allFinite());
}

TEST_CASE("a passed deadline stops the step with WallTimeExceeded, state unchanged", "[dynamics]") {
  SimulationParams p;
  p.dt = 0.01;
  TimeStepper sim({cube(Vec3::Zero())}, p);
  sim.step();  // no deadline: a normal step
  REQUIRE(sim.step_index() == 1);
  const Positions before = sim.nodes();
  sim.set_deadline(std::chrono::steady_clock::now() - std::chrono::seconds(1));
  CHECK_THROWS_AS(sim.step(), WallTimeExceeded);
  CHECK(sim.step_index() == 1);
  CHECK(sim.nodes() == before);
  sim.set_deadline(std::nullopt);
  sim.step();
  CHECK(sim.step_index() == 2);
}
