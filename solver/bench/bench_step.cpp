// Whole time steps and Newton linear solves on the teddy mesh (410 vertices,
// 1207 tets, scaled to a 0.155 m bear) resting on the ground, and whole steps
// of scene files at h = 0.02 s with the full-space and the low embedding.
#include "eipc/broad_phase/broad_phase.hpp"
#include "eipc/dynamics/time_stepper.hpp"
#include "eipc/mesh/read_mesh.hpp"
#include "eipc/mesh/transform.hpp"
#include "eipc/mesh/surface.hpp"
#include "eipc/scene/scene.hpp"

#include <filesystem>

#include <benchmark/benchmark.h>

using namespace eipc;

namespace {

TimeStepper teddy_on_ground(double dt) {
  TetMesh m = read_tet_mesh(EIPC_ASSETS "/drake/teddy.vtk");
  const Mat3 R = rotation_xyz_deg(Vec3(90, 0, 0));
  for (Eigen::Index i = 0; i < m.vertices.rows(); ++i)
    m.vertices.row(i) = (R * (0.15 * m.vertices.row(i).transpose())).transpose();
  m.vertices.col(2).array() += 5e-4 - m.vertices.col(2).minCoeff();
  Material mat;
  mat.model = ElasticModel::linear_corotated;
  mat.youngs = 5e4;
  mat.poisson = 0.45;
  mat.density = 1000;
  SimulationParams p;
  p.dt = dt;
  p.ground_height = 0.0;
  p.contact.friction = 1.0;
  return TimeStepper({make_full_space_body("teddy", m.vertices, m.tets, boundary_faces(m.tets), mat)}, p);
}

void BM_TeddyStep(benchmark::State& state) {
  TimeStepper sim = teddy_on_ground(0.01);
  for (int i = 0; i < 10; ++i) sim.step();  // settle into contact
  long newton = 0, steps = 0;
  for (auto _ : state) {
    newton += sim.step().newton_iterations;
    ++steps;
  }
  state.counters["newton_per_step"] = double(newton) / double(steps);
}
BENCHMARK(BM_TeddyStep)->Unit(benchmark::kMillisecond);

/// One Newton linear solve (factorisation + solve) of the teddy's step Hessian in contact.
void BM_TeddyLinearSolve(benchmark::State& state) {
  TimeStepper sim = teddy_on_ground(0.01);
  for (int i = 0; i < 10; ++i) sim.step();
  const DofSystem& sys = sim.system();
  const IncrementalPotential potential(sys, sim.params());
  StepContext s;
  s.q_prev = s.q_tilde = sim.nodes();
  s.x_prev = sys.collision().positions(sim.nodes());
  s.external_force = sys.gravity_force(sim.params().gravity);
  const ContactSet contacts =
      potential.contacts(sim.nodes(), find_candidates(sys.collision().mesh(), s.x_prev, s.x_prev, sim.params().contact.dhat));
  const SparseMatrix H = potential.hessian(s, sim.nodes(), contacts);
  const VecX g = potential.gradient(s, sim.nodes(), contacts);
  LinearSolver solver;
  VecX dx;
  for (auto _ : state) benchmark::DoNotOptimize(solver.solve(H, -g, dx));
  state.counters["dofs"] = double(H.rows());
  state.counters["contacts"] = double(contacts.size());
}
BENCHMARK(BM_TeddyLinearSolve)->Unit(benchmark::kMillisecond);

/// Steps of a scene file (relative to scenarios/) at h = 0.02 s, from t = 0.6 s
/// on (for the grasp: the bubbles closing on the teddy).
void BM_SceneStep(benchmark::State& state, const char* scene, const char* embedding) {
  const std::string path = std::string(EIPC_ASSETS) + "/../" + scene;
  if (!std::filesystem::exists(path)) {
    state.SkipWithError(("missing " + path).c_str());
    return;
  }
  SceneOverrides o;
  o.dt = 0.02;
  o.embedding = embedding;
  const Scene sc = load_scene(path, o);
  TimeStepper sim(sc.bodies, sc.params);
  for (int i = 0; i < 30; ++i) sim.step();
  long newton = 0, steps = 0;
  for (auto _ : state) {
    newton += sim.step().newton_iterations;
    ++steps;
  }
  state.counters["newton_per_step"] = double(newton) / double(steps);
  state.counters["nodes"] = sim.system().num_nodes();
}
BENCHMARK_CAPTURE(BM_SceneStep, teddy_drop_full, "demo/teddy_drop.json", "full")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SceneStep, teddy_drop_low, "demo/teddy_drop.json", "low")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SceneStep, teddy_grasp_full, "bubble_grasp/teddy.json", "full")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SceneStep, teddy_grasp_low, "bubble_grasp/teddy.json", "low")->Unit(benchmark::kMillisecond);

}  // namespace
