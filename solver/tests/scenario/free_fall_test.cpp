// Free fall must equal the closed form of backward Euler:
//   v_{n+1} = v_n + h g,  x_{n+1} = x_n + h v_{n+1}.
#include "scene_builders.hpp"

#include <catch2/catch.hpp>

using namespace eipc;

TEST_CASE("free fall matches backward Euler's closed form to round-off", "[scenario][dynamics]") {
  for (ElasticModel model : {ElasticModel::linear_corotated, ElasticModel::neo_hookean}) {
    Body cube = test::make_box("cube", Vec3(0, 0, 1), Vec3(0.1, 0.1, 1.1), 2, test::material(model, 1e5, 0.3, 1000));
    const Vec3 v0(1.0, -0.5, 2.0);
    cube.initial_velocity = v0;
    const Positions rest = cube.fine_rest;
    SimulationParams p;
    p.dt = 0.01;
    TimeStepper sim({cube}, p);
    Vec3 v = v0, shift = Vec3::Zero();
    for (int n = 0; n < 30; ++n) {
      const StepStats s = sim.step();
      CHECK(s.newton_iterations <= 2);
      v += p.dt * p.gravity;
      shift += p.dt * v;
    }
    const Positions x = sim.fine_positions()[0];
    double err = 0;
    for (Eigen::Index i = 0; i < x.rows(); ++i) err = std::max(err, (x.row(i) - rest.row(i) - shift.transpose()).norm());
    INFO("max deviation from the closed form: " << err << " m after a displacement of " << shift.norm() << " m");
    CHECK(err < 1e-12);
  }
}
