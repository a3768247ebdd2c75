// scenarios/finray_plate_rack.json (written by scenarios/finray/make_scene.py) loads as the
// motion script assumes: the plate is an affine body of Drake's mass, the fingers are embedded
// in finray_coarse.msh with exactly their mounting-face nodes prescribed, their rest centroids
// lie on one line along y (so turning each about its own centroid turns the pair rigidly),
// and at rest nothing is within dhat (the reason the scene uses dhat = 1e-4 m).
#include <catch2/catch.hpp>

#include "eipc/dynamics/time_stepper.hpp"
#include "eipc/mesh/read_mesh.hpp"
#include "eipc/scene/scene.hpp"

#include <cmath>
#include <string>

using namespace eipc;

namespace {

const std::string kScene = std::string(EIPC_ASSETS) + "/../finray_plate_rack.json";

const Body& body(const Scene& s, const std::string& name) {
  for (const Body& b : s.bodies)
    if (b.name == name) return b;
  FAIL("no body " << name);
  throw;
}

}  // namespace

TEST_CASE("the FinRay scene's bodies are set up as its motion script assumes", "[scenarios][finray]") {
  const Scene scene = load_scene(kScene);
  REQUIRE(scene.bodies.size() == 4);

  const Body& plate = body(scene, "plate");
  CHECK(plate.embedding == "affine");
  CHECK(plate.num_nodes() == 4);
  CHECK(plate.material.model == ElasticModel::abd);
  CHECK(plate.material.youngs == 1e7);
  // Drake's plate_8in.sdf: 0.375 kg.
  CHECK(plate.element_volumes.sum() * plate.material.density == Approx(0.375).epsilon(1e-3));

  const TetMesh coarse = read_tet_mesh(std::string(EIPC_ASSETS) + "/generated/finray_coarse.msh");
  int base_nodes = 0;  // the coarse finger's mounting face is its native z = 0
  for (int i = 0; i < coarse.num_vertices(); ++i) base_nodes += coarse.vertices(i, 2) == 0.0;
  REQUIRE(base_nodes > 3);
  for (const char* name : {"finger_left", "finger_right"}) {
    INFO(name);
    const Body& f = body(scene, name);
    CHECK(f.embedding == "coarse");
    CHECK(f.num_nodes() == coarse.num_vertices());
    CHECK(f.material.model == ElasticModel::linear_corotated);
    // The fingers point down: the mounting face is the top of the finger, and exactly its
    // nodes follow the gripper.
    const double top = f.fine_rest.col(2).maxCoeff();
    CHECK(static_cast<int>(f.prescribed_nodes.size()) == base_nodes);
    for (int n : f.prescribed_nodes) CHECK(f.node_rest(n, 2) == Approx(top).margin(1e-12));
    CHECK(top - f.fine_rest.col(2).minCoeff() == Approx(0.055).margin(1e-12));
  }
  const Body& left = body(scene, "finger_left");
  const Body& right = body(scene, "finger_right");
  CHECK(left.pivot.x() == Approx(right.pivot.x()).margin(1e-12));
  CHECK(left.pivot.z() == Approx(right.pivot.z()).margin(1e-12));
  CHECK(left.pivot.y() < -0.1);
  CHECK(right.pivot.y() == Approx(-left.pivot.y()).margin(1e-12));
  // Front walls face each other across the plate (rim radius 0.0981 m).
  CHECK(left.fine_rest.col(1).maxCoeff() < -0.0981);
  CHECK(right.fine_rest.col(1).minCoeff() > 0.0981);
}

TEST_CASE("at rest no FinRay scene primitives are within dhat, but would be with the paper's 1 mm", "[scenarios][finray]") {
  const Scene scene = load_scene(kScene);
  CHECK(scene.params.contact.dhat == 1e-4);
  const TimeStepper sim(scene.bodies, scene.params);
  const double d = sim.current_min_distance();  // over box-overlap candidates: may exceed dhat
  CHECK((std::isinf(d) || d >= 1e-4));

  // The fine finger surface (0.5-0.9 mm triangles, 1 mm ribs) has non-adjacent primitives
  // 0.15 mm apart at rest: with dhat = 1 mm the barrier would act before anything touches.
  SimulationParams paper = scene.params;
  paper.contact.dhat = 1e-3;
  const TimeStepper paper_barrier(scene.bodies, paper);
  CHECK(paper_barrier.current_min_distance() < 2e-4);
}
