// Trajectories are bit-identical for any thread count.
#include "eipc/util/parallel.hpp"
#include "scene_builders.hpp"

#include <catch2/catch.hpp>

using namespace eipc;

namespace {

std::vector<Positions> run_contact_scene(int threads) {
  ThreadLimit limit(threads);
  const Material m = test::material(ElasticModel::linear_corotated, 1e5, 0.4, 1000);
  Body a = test::make_box("a", Vec3(0, 0, 0.002), Vec3(0.1, 0.1, 0.102), 3, m);
  Body b = test::make_box("b", Vec3(0.02, 0.03, 0.104), Vec3(0.08, 0.09, 0.164), 3, m);
  b.initial_velocity = Vec3(0.3, 0, -0.5);
  SimulationParams p;
  p.dt = 0.01;
  p.ground_height = 0.0;
  p.contact.friction = 0.5;
  TimeStepper sim({a, b}, p);
  for (int n = 0; n < 25; ++n) sim.step();
  return sim.fine_positions();
}

}  // namespace

TEST_CASE("one and two threads give bit-identical trajectories", "[scenario][determinism]") {
  const auto one = run_contact_scene(1);
  const auto two = run_contact_scene(2);
  REQUIRE(one.size() == two.size());
  for (std::size_t b = 0; b < one.size(); ++b) CHECK((one[b].array() == two[b].array()).all());
}
