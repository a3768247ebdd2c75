// Embedded bodies in simulation: the identity embedding is the full-space
// method, free fall is exact, and coarse/affine embeddings behave like the
// full-space body they approximate.
#include "eipc/embedding/coarsened_stiffness.hpp"
#include "eipc/embedding/embedded_body.hpp"
#include "eipc/embedding/lattice_embedding.hpp"
#include "eipc/testing/box_mesh.hpp"
#include "scene_builders.hpp"

#include <Eigen/QR>
#include <catch2/catch.hpp>
#include <cmath>

using namespace eipc;

namespace {

Body soft_cube() {
  return test::make_box("cube", Vec3(0, 0, 0.002), Vec3(0.1, 0.1, 0.102), 3,
                        test::material(ElasticModel::linear_corotated, 1e5, 0.4, 1000));
}

SimulationParams ground_params() {
  SimulationParams p;
  p.dt = 0.01;
  p.ground_height = 0.0;
  p.contact.friction = 0.5;
  return p;
}

Positions run(const Body& body, const SimulationParams& p, int steps, Vec3 velocity = Vec3::Zero()) {
  Body b = body;
  b.initial_velocity = velocity;
  TimeStepper sim({b}, p);
  for (int n = 0; n < steps; ++n) sim.step();
  return sim.fine_positions()[0];
}

}  // namespace

TEST_CASE("the identity embedding reproduces the full-space run", "[scenario][embedding]") {
  const Body full = soft_cube();
  const Body identity = embed_body(full, TetMesh{full.fine_rest, full.fine_tets}, "identity", "test");
  const Vec3 v(0.3, 0.1, -0.5);
  const Positions a = run(full, ground_params(), 30, v);
  const Positions b = run(identity, ground_params(), 30, v);
  const double rel = (a - b).norm() / (a - full.fine_rest).norm();
  INFO("relative difference " << rel);
  CHECK(rel < 1e-12);
}

TEST_CASE("an embedded body falls exactly like backward Euler's closed form", "[scenario][embedding]") {
  Body full = soft_cube();
  const Body low = embed_body(full, lattice_embedding(full.fine_rest, 20), "low", "test");
  SimulationParams p;
  p.dt = 0.01;
  const Vec3 v0(0.5, 0, 1);
  const Positions x = run(low, p, 25, v0);
  Vec3 v = v0, shift = Vec3::Zero();
  for (int n = 0; n < 25; ++n) {
    v += p.dt * p.gravity;
    shift += p.dt * v;
  }
  const double err = (x.rowwise() - shift.transpose() - full.fine_rest).cwiseAbs().maxCoeff();
  INFO("max deviation " << err << " m");
  CHECK(err < 1e-12);
}

TEST_CASE("mass and momentum are the same for full and embedded bodies", "[scenario][embedding]") {
  const Body full = soft_cube();
  const Body low = embed_body(full, lattice_embedding(full.fine_rest, 20), "low", "test");
  SimulationParams p;
  p.dt = 0.01;
  const TimeStepper a({full}, p), b({low}, p);
  CHECK(a.system().node_mass().sum() == Approx(b.system().node_mass().sum()).epsilon(1e-12));
  CHECK(a.system().node_mass().sum() == Approx(1000 * 0.1 * 0.1 * 0.1).epsilon(1e-12));
  // Centre of mass: M-weighted mean of the nodes equals the fine centre of mass.
  const Positions ga = a.system().gravity_force(Vec3(0, 0, -1)), gb = b.system().gravity_force(Vec3(0, 0, -1));
  CHECK(ga.col(2).sum() == Approx(gb.col(2).sum()).epsilon(1e-12));
}

TEST_CASE("stiff affine and embedded bodies rest and slide like the full-space body", "[scenario][embedding]") {
  const Material stiff = test::material(ElasticModel::linear_corotated, 1e7, 0.3, 1000);
  const Body full = test::make_box("block", Vec3(0, 0, 5e-4), Vec3(0.1, 0.1, 0.1005), 2, stiff);
  const Body affine = embed_body(full, enclosing_tet(full.fine_rest), "affine", "test");
  const Body low = embed_body(full, lattice_embedding(full.fine_rest, 20), "low", "test");
  const double theta = std::atan(0.5), mu = 0.3;
  const double expected = 9.81 * (std::sin(theta) - mu * std::cos(theta));
  // Rest on flat ground first (each body settles into its own equilibrium gap),
  // then tilt gravity and fit the sliding acceleration: x = c0 + c1 t + a/2 t^2.
  auto slide = [&](const Body& body) {
    SimulationParams p = ground_params();
    p.contact.friction = mu;
    TimeStepper sim({body}, p);
    for (int n = 0; n < 50; ++n) sim.step();
    const double rest_gap = sim.fine_positions()[0].col(2).minCoeff();
    sim.set_gravity(9.81 * Vec3(std::sin(theta), 0, -std::cos(theta)));
    Eigen::MatrixXd A(40, 3);
    Eigen::VectorXd b(40);
    for (int n = 0; n < 60; ++n) {
      sim.step();
      if (n < 20) continue;
      const double t = 0.01 * (n + 1);
      A.row(n - 20) << 1.0, t, t * t;
      b[n - 20] = test::body_centroid(sim, 0).x();
    }
    return std::make_pair(rest_gap, 2.0 * A.colPivHouseholderQr().solve(b)[2]);
  };
  const auto [gap_full, a_full] = slide(full);
  INFO("full-space: rest gap " << gap_full << " m, acceleration " << a_full << " m/s^2 (analytic " << expected << ")");
  CHECK(a_full == Approx(expected).epsilon(0.02));
  for (const Body* b : {&affine, &low}) {
    const auto [gap, a] = slide(*b);
    INFO(b->embedding << ": rest gap " << gap << " m, acceleration " << a << " m/s^2");
    CHECK(gap > 0.0);
    CHECK(gap < 1e-3);
    CHECK(a == Approx(a_full).epsilon(0.02));
  }
}

namespace {

/// `embedded` with the stiffness coarsened from `full`'s own fine mesh.
Body coarsened(Body embedded, const Body& full) {
  embedded.coarsened_stiffness = coarsened_stiffness(full.fine_rest, full.fine_tets, embedded.fine_map,
                                                     embedded.num_nodes(), full.material, "test");
  return embedded;
}

/// A soft block on a 4^3 grid (soft_cube's 3^3 grid leaves a motion of its 20-node
/// lattice that moves no vertex, which coarsening refuses: tested below).
Body soft_block() {
  return test::make_box("block", Vec3(0, 0, 0.001), Vec3(0.1, 0.1, 0.101), 4,
                        test::material(ElasticModel::linear_corotated, 2e4, 0.45, 1000));
}

}  // namespace

TEST_CASE("a coarsened embedding falls exactly like backward Euler's closed form", "[scenario][embedding]") {
  const Body full = soft_block();
  const Body low = embed_body(full, lattice_embedding(full.fine_rest, 20), "low", "test");
  SimulationParams p;
  p.dt = 0.01;
  const Positions x = run(coarsened(low, full), p, 25, Vec3(0.5, 0, 1));
  const Positions y = run(low, p, 25, Vec3(0.5, 0, 1));
  CHECK((x - y).cwiseAbs().maxCoeff() < 1e-12);
}

TEST_CASE("coarsening refuses an embedding with a motion that moves no fine vertex", "[scenario][embedding]") {
  const Body full = soft_cube();
  const Body low = embed_body(full, lattice_embedding(full.fine_rest, 20), "low", "test");
  CHECK_THROWS_WITH(coarsened(low, full), Catch::Contains("moves no vertex of the fine mesh"));
}

TEST_CASE("the coarsened identity embedding follows the full-space run at small strain", "[scenario][embedding]") {
  // Linear elasticity in the body's rotation against the corotated tets: the same to
  // first order in the strain (a stiff cube landing on the ground while it slides).
  const Material stiff = test::material(ElasticModel::linear_corotated, 1e7, 0.3, 1000);
  const Body full = test::make_box("block", Vec3(0, 0, 0.002), Vec3(0.1, 0.1, 0.102), 2, stiff);
  const Body identity = coarsened(embed_body(full, TetMesh{full.fine_rest, full.fine_tets}, "identity", "test"), full);
  const Vec3 v(0.3, 0.1, -0.5);
  const Positions a = run(full, ground_params(), 30, v);
  const Positions b = run(identity, ground_params(), 30, v);
  const double rel = (a - b).norm() / (a - full.fine_rest).norm();
  INFO("relative difference " << rel);
  CHECK(rel < 1e-3);
}

TEST_CASE("a coarsened lattice sags under its weight closer to the full-space body than P1", "[scenario][embedding]") {
  // A soft block resting on the ground: how much shorter it gets.
  const Body full = soft_block();
  const Body low = embed_body(full, lattice_embedding(full.fine_rest, 20), "low", "test");
  auto sag = [&](const Body& body) {
    SimulationParams p = ground_params();
    p.dt = 0.02;
    Body b = body;
    b.rayleigh_beta = 0.05;
    TimeStepper sim({b}, p);
    for (int n = 0; n < 100; ++n) sim.step();
    const Positions x = sim.fine_positions()[0];
    return (full.fine_rest.col(2).maxCoeff() - full.fine_rest.col(2).minCoeff()) -
           (x.col(2).maxCoeff() - x.col(2).minCoeff());
  };
  const double s_full = sag(full), s_p1 = sag(low), s_coarsened = sag(coarsened(low, full));
  INFO("sag: full " << s_full << " m, P1 " << s_p1 << " m, coarsened " << s_coarsened << " m");
  CHECK(s_full > 0.0);
  CHECK(std::abs(s_coarsened - s_full) < 0.5 * std::abs(s_p1 - s_full));
}
