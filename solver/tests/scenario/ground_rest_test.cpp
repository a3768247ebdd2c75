// A cube dropped on the ground comes to rest with a gap in (0, dhat).
#include "scene_builders.hpp"

#include <catch2/catch.hpp>

using namespace eipc;

TEST_CASE("a dropped cube comes to rest above the ground within dhat", "[scenario][contact]") {
  const Body cube = test::make_box("cube", Vec3(0, 0, 0.05), Vec3(0.1, 0.1, 0.15), 3,
                                   test::material(ElasticModel::linear_corotated, 1e5, 0.3, 1000));
  SimulationParams p;
  p.dt = 0.01;
  p.ground_height = 0.0;
  p.contact.friction = 0.5;
  TimeStepper sim({cube}, p);
  double min_gap = 1.0;
  for (int n = 0; n < 150; ++n) {
    sim.step();
    min_gap = std::min(min_gap, sim.fine_positions()[0].col(2).minCoeff());
  }
  const Positions x = sim.fine_positions()[0];
  const double gap = x.col(2).minCoeff();
  INFO("final gap " << gap << " m, smallest gap seen " << min_gap << " m");
  CHECK(gap > 0.0);
  CHECK(gap < p.contact.dhat);
  CHECK(min_gap > 0.0);
  CHECK(sim.velocities().rowwise().norm().maxCoeff() < 1e-3);
}
