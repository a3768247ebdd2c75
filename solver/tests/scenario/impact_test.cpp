// A cube thrown at another at 10 m/s with h = 0.01 stays intersection free.
#include "scene_builders.hpp"

#include <catch2/catch.hpp>

using namespace eipc;

TEST_CASE("a cube thrown at another at 10 m/s stays intersection free", "[scenario][contact]") {
  const Material m = test::material(ElasticModel::neo_hookean, 1e5, 0.3, 1000);
  Body a = test::make_box("thrown", Vec3(-0.15, 0, 0), Vec3(-0.05, 0.1, 0.1), 2, m);
  a.initial_velocity = Vec3(10, 0, 0);
  Body b = test::make_box("target", Vec3(0, 0.02, 0.02), Vec3(0.1, 0.12, 0.12), 2, m);
  SimulationParams p;
  p.dt = 0.01;
  p.gravity.setZero();
  TimeStepper sim({a, b}, p);
  bool clear = true;
  double min_distance = 1.0;
  for (int n = 0; n < 20 && clear; ++n) {
    const StepStats s = sim.step();
    min_distance = std::min(min_distance, s.min_distance);
    clear = test::intersection_free(sim);
  }
  INFO("smallest contact distance " << min_distance << " m");
  CHECK(clear);
  CHECK(min_distance > 0.0);
  // They did collide: the target was pushed along +x.
  CHECK(test::body_centroid(sim, 1).x() > 0.06);
}
