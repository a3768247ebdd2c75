// NewtonSolver's EarlyStop (used by the friction rounds): asked once, at the
// first iterate whose direction moves less than its threshold; declining it
// changes nothing, accepting it ends the solve there, and a solve continued
// from there reaches the same solution.
#include "eipc/dynamics/newton_solver.hpp"
#include "eipc/dynamics/time_stepper.hpp"
#include "eipc/testing/box_mesh.hpp"
#include "eipc/mesh/surface.hpp"

#include <catch2/catch.hpp>

using namespace eipc;

namespace {

/// A soft box falling onto the ground at 1 m/s, 0.5 mm above it (one step lands it).
struct Landing {
  SimulationParams params;
  DofSystem sys;
  PhaseTimes times;
  IncrementalPotential potential;
  ContactQueries queries;
  StepContext s;
  std::vector<bool> fixed;

  static Body box() {
    const TetMesh m = box_tet_mesh(Vec3(0, 0, 5e-4), Vec3(0.1, 0.1, 0.05), 2, 2, 2);
    Material soft;
    soft.youngs = 2e4;
    Body b = make_full_space_body("box", m.vertices, m.tets, boundary_faces(m.tets), soft);
    b.initial_velocity = Vec3(0.2, 0, -1);
    return b;
  }
  static SimulationParams make_params() {
    SimulationParams p;
    p.dt = 0.01;
    p.ground_height = 0.0;
    return p;
  }

  Landing()
      : params(make_params()), sys({box()}), potential(sys, params), queries(sys, params, times),
        fixed(sys.num_dofs(), false) {
    s.q_prev = sys.rest_nodes();
    Positions v = Positions::Zero(s.q_prev.rows(), 3);
    v.rowwise() = sys.bodies()[0].initial_velocity.transpose();
    s.q_tilde = s.q_prev + params.dt * v;
    s.x_prev = sys.collision().positions(s.q_prev);
    s.external_force = sys.gravity_force(params.gravity);
  }

  NewtonResult solve(Positions& q, const EarlyStop* early = nullptr) {
    NewtonSolver newton(sys, params, potential, queries, times);
    return newton.solve(s, q, fixed, params.dt, early);
  }
};

}  // namespace

// Each solve gets a fresh Landing: the potential and the contact queries keep
// patterns and caches between solves, which may change sums in the last bits.
TEST_CASE("Newton's early stop: asked once below its threshold; declined it changes nothing", "[dynamics][newton]") {
  Positions plain = Landing().s.q_prev;
  const NewtonResult plain_result = Landing().solve(plain);
  REQUIRE(plain_result.iterations > 2);  // a landing takes several directions

  const SimulationParams params = Landing::make_params();
  const double threshold = 30 * params.solver.newton_tol * params.dt;
  int asked = 0;
  Positions asked_at;
  const EarlyStop decline{threshold, [&](const Positions& q, const ContactSet&) {
                            ++asked;
                            asked_at = q;
                            return false;
                          }};
  Landing landing;
  Positions q = landing.s.q_prev;
  const NewtonResult result = landing.solve(q, &decline);
  CHECK(asked == 1);
  CHECK_FALSE(result.stopped_early);
  CHECK(result.iterations == plain_result.iterations);
  CHECK(q == plain);
  // It was asked at an iterate close to the answer, not at the start.
  CHECK(asked_at != landing.s.q_prev);
  CHECK((asked_at - plain).rowwise().norm().maxCoeff() < 10 * threshold);
}

TEST_CASE("Newton's early stop: accepted, the solve ends there, and continuing reaches the same answer",
          "[dynamics][newton]") {
  Landing landing;
  Positions plain = landing.s.q_prev;
  const NewtonResult plain_result = landing.solve(plain);

  Positions asked_at;
  const EarlyStop accept{30 * landing.params.solver.newton_tol * landing.params.dt, [&](const Positions& q, const ContactSet&) {
                           asked_at = q;
                           return true;
                         }};
  Positions q = landing.s.q_prev;
  const NewtonResult result = landing.solve(q, &accept);
  CHECK(result.stopped_early);
  CHECK(q == asked_at);
  CHECK(result.iterations < plain_result.iterations);

  const NewtonResult rest = landing.solve(q);
  CHECK_FALSE(rest.stopped_early);
  // Both stop within newton_tol * h of the solution.
  CHECK((q - plain).rowwise().norm().maxCoeff() < 2 * landing.params.solver.newton_tol * landing.params.dt);
}
