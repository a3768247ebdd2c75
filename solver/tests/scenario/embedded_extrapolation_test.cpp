// An embedded ball whose coarse embedding does not reach its outermost vertices
// (they are bound by extrapolated weights) is dropped on the ground and pressed
// by a kinematic plate: the fine surface, including the extrapolated vertices
// that carry the contacts, stays intersection free in every step (exact check).
#include "eipc/embedding/embedded_body.hpp"
#include "eipc/embedding/lattice_embedding.hpp"
#include "eipc/mesh/read_mesh.hpp"
#include "eipc/mesh/surface.hpp"
#include "scene_builders.hpp"

#include <catch2/catch.hpp>

using namespace eipc;

TEST_CASE("an embedded ball with extrapolated vertices dropped and pressed stays intersection free",
          "[scenario][embedding][contact]") {
  // Ball of radius 0.05 m (391 vertices), 2 mm above the ground.
  TetMesh mesh = read_tet_mesh(EIPC_ASSETS "/generated/sphere_0k4.msh");
  mesh.vertices.col(2).array() += 0.002 - mesh.vertices.col(2).minCoeff();
  const Body full = make_full_space_body("ball", mesh.vertices, mesh.tets, boundary_faces(mesh.tets),
                                         test::material(ElasticModel::linear_corotated, 5e4, 0.4, 1000));
  // Lattice over the ball shrunk by 4% about its centre: the poles and the
  // equator stick out of it by up to 2 mm.
  const Eigen::RowVector3d centre = 0.5 * (mesh.vertices.colwise().minCoeff() + mesh.vertices.colwise().maxCoeff());
  const Positions shrunk = (0.96 * (mesh.vertices.rowwise() - centre)).rowwise() + centre;
  EmbeddingReport report;
  const Body ball = embed_body(full, lattice_embedding(shrunk, 35), "shrunk", "test", &report);
  INFO(report.extrapolated << " of " << report.vertices << " vertices extrapolated, farthest " << report.max_outside
                           << " m; " << ball.num_nodes() << " nodes");
  REQUIRE(report.extrapolated > 0);
  REQUIRE(report.max_outside > 1.5e-3);
  std::vector<char> extrapolated(full.fine_rest.rows(), 0);
  for (int v = 0; v < ball.fine_map.size(); ++v)
    extrapolated[v] = ball.fine_map.weights.row(v).minCoeff() < 0.0;

  // After the ball lands, a plate 0.5 mm above its top presses it down 15 mm in 0.5 s, then holds.
  const double top = mesh.vertices.col(2).maxCoeff(), gap = 5e-4, press = 0.015;
  const Body plate =
      test::make_kinematic_box("plate", Vec3(-0.08, -0.08, top + gap), Vec3(0.08, 0.08, top + gap + 0.01),
                               Motion({{0.1, Vec3::Zero(), Vec3::Zero()}, {0.6, Vec3(0, 0, -press), Vec3::Zero()}}));
  SimulationParams p;
  p.dt = 0.01;
  p.ground_height = 0.0;
  p.contact.friction = 0.5;
  TimeStepper sim({ball, plate}, p);
  REQUIRE(test::intersection_free(sim));
  for (int n = 0; n < 80; ++n) {
    const StepStats s = sim.step();
    INFO("t = " << sim.time() << " s, min distance " << s.min_distance << " m");
    REQUIRE(s.min_distance > 0.0);
    REQUIRE(test::intersection_free(sim));
  }

  // The plate arrived and the ball (squeezed by 14 mm) touches it and the ground, within dhat of each.
  const Positions x = sim.fine_positions()[0];
  const double plate_bottom = sim.fine_positions()[1].col(2).minCoeff();
  CHECK(plate_bottom == Approx(top + gap - press).margin(1e-9));
  INFO("ball from z = " << x.col(2).minCoeff() << " to " << x.col(2).maxCoeff() << " m, plate at " << plate_bottom);
  CHECK(x.col(2).maxCoeff() < plate_bottom);
  CHECK(x.col(2).maxCoeff() > plate_bottom - p.contact.dhat);
  double plate_force = 0.0;
  for (const BodyPairForce& f : sim.contact_forces())
    if (f.body_a + f.body_b == 1) plate_force = f.normal.norm();
  INFO("plate force " << plate_force << " N");
  CHECK(plate_force > 1.0);
  // The contacts are carried by extrapolated vertices: the lowest and the highest vertex are among them.
  Eigen::Index lowest, highest;
  x.col(2).minCoeff(&lowest);
  x.col(2).maxCoeff(&highest);
  CHECK(extrapolated[lowest]);
  CHECK(extrapolated[highest]);
  CHECK(x(lowest, 2) < p.contact.dhat);
}
