// A soft cube squeezed to 40% of its height between two kinematic plates stays
// intersection free (exact check of every step).
#include "scene_builders.hpp"

#include <catch2/catch.hpp>

using namespace eipc;

TEST_CASE("a soft cube squeezed to 40% between kinematic plates stays intersection free", "[scenario][contact]") {
  const double gap = 5e-4;  // initial clearance between cube and plates
  Body cube = test::make_box("cube", Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.1), 3,
                             test::material(ElasticModel::linear_corotated, 1e4, 0.4, 1000));
  Body bottom = test::make_kinematic_box("bottom", Vec3(-0.05, -0.05, -0.02 - gap), Vec3(0.15, 0.15, -gap), Motion());
  // The top plate moves down by 0.06 m (the cube ends at 40% of its height) in 1 s, then holds.
  Body top = test::make_kinematic_box("top", Vec3(-0.05, -0.05, 0.1 + gap), Vec3(0.15, 0.15, 0.12 + gap),
                                      Motion({{0.0, Vec3::Zero(), Vec3::Zero()}, {1.0, Vec3(0, 0, -0.06), Vec3::Zero()}}));
  SimulationParams p;
  p.dt = 0.01;
  p.gravity.setZero();
  p.contact.friction = 0.2;
  TimeStepper sim({cube, bottom, top}, p);
  bool all_clear = true;
  for (int n = 0; n < 120; ++n) {
    sim.step();
    if (!test::intersection_free(sim)) {
      all_clear = false;
      FAIL_CHECK("intersection at t = " << sim.time());
      break;
    }
  }
  CHECK(all_clear);
  const Positions x = sim.fine_positions()[0];
  const double height = x.col(2).maxCoeff() - x.col(2).minCoeff();
  INFO("cube height after the squeeze: " << height << " m");
  CHECK(height < 0.041);
  CHECK(height > 0.035);
  // The plates reached their targets (prescribed motion was honoured).
  CHECK(sim.fine_positions()[2].col(2).minCoeff() == Approx(0.1 + gap - 0.06).margin(1e-6));
}
