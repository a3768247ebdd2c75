// Newton's matrix choice (solver.newton_matrix): the exact Hessian when it
// is positive definite, or always the per-element projection (docs/design.md §3's
// projected Newton), must reach the same states; only the path differs.
#include "eipc/dynamics/time_stepper.hpp"
#include "eipc/testing/box_mesh.hpp"
#include "eipc/mesh/surface.hpp"

#include <catch2/catch.hpp>

using namespace eipc;

namespace {

Body box(const std::string& name, const Vec3& lo, const Vec3& hi, const Vec3& velocity) {
  const TetMesh m = box_tet_mesh(lo, hi, 2, 2, 2);
  Material soft;
  soft.youngs = 2e4;
  Body b = make_full_space_body(name, m.vertices, m.tets, boundary_faces(m.tets), soft);
  b.initial_velocity = velocity;
  return b;
}

/// A soft box thrown onto another one resting on the ground (impact, friction, squeeze).
Positions run(NewtonMatrix matrix, int& factorizations) {
  SimulationParams p;
  p.dt = 0.01;
  p.ground_height = 0.0;
  p.contact.friction = 0.5;
  // One friction lag: each step then has one solution. With rounds, any state whose
  // lagged forces match its own within friction_tol is accepted, and which one a
  // solve lands on depends on its path (up to ~1e-5 m here), the matrix choice included.
  p.contact.friction_max_rounds = 1;
  p.solver.newton_matrix = matrix;
  TimeStepper sim({box("lower", Vec3(0, 0, 0.0005), Vec3(0.1, 0.1, 0.0505), Vec3::Zero()),
                 box("upper", Vec3(0.02, 0.03, 0.052), Vec3(0.08, 0.09, 0.1), Vec3(0.3, 0, -2))},
                p);
  factorizations = 0;
  for (int k = 0; k < 30; ++k) factorizations += sim.step().factorizations;
  return sim.nodes();
}

}  // namespace

TEST_CASE("exact-if-definite and projected Newton reach the same states", "[dynamics][newton]") {
  int exact_factorizations = 0, projected_factorizations = 0;
  const Positions exact = run(NewtonMatrix::exact_if_definite, exact_factorizations);
  const Positions projected = run(NewtonMatrix::projected, projected_factorizations);
  INFO("factorisations: exact first " << exact_factorizations << ", projected " << projected_factorizations);
  // Each step stops within newton_tol * h = 1e-7 m of its solution.
  CHECK((exact - projected).cwiseAbs().maxCoeff() < 1e-6);
  CHECK(exact_factorizations > 0);
  CHECK(projected_factorizations > 0);
}
