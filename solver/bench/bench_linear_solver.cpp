// Sparse Cholesky variants on real Newton matrices: the teddy grasp at h = 0.02 s
// (low embedding ~0.5k DOFs, full space ~1.6k DOFs, in contact) and the 5k-vertex
// resolution ball in full space (~14.6k DOFs, first step). Each benchmark
// factorises and solves every captured matrix of its set once per iteration,
// either reusing the symbolic analysis (factorize) or redoing it (analyze).
// The BLAS that CHOLMOD's supernodal factorisation uses is the one the dynamic
// loader finds (e.g. LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/openblas-serial).
#include "eipc/broad_phase/broad_phase.hpp"
#include "eipc/dynamics/time_stepper.hpp"
#include "eipc/optim/block_ldlt.hpp"
#include "eipc/optim/linear_solver.hpp"
#include "eipc/optim/node_ordering.hpp"
#include "eipc/scene/scene.hpp"
#include "eipc/util/parallel.hpp"

#ifdef EIPC_HAVE_CHOLMOD
#include <Eigen/CholmodSupport>
#endif
#include <Eigen/SparseCholesky>
#include <filesystem>
#include <functional>
#include <map>

#include <benchmark/benchmark.h>

using namespace eipc;

namespace {

struct NewtonSystems {
  std::vector<SparseMatrix> H;
  std::vector<VecX> rhs;
};

/// The Newton matrix and right-hand side at the simulator's current state, for
/// the step that follows (as NewtonSolver::solve builds them at its first iterate).
void append_system(const TimeStepper& sim, NewtonSystems& out) {
  const DofSystem& sys = sim.system();
  const SimulationParams& p = sim.params();
  const IncrementalPotential potential(sys, p);
  StepContext s;
  s.q_prev = sim.nodes();
  s.q_tilde = sim.nodes() + p.dt * sim.velocities();
  s.x_prev = sys.collision().positions(sim.nodes());
  s.external_force = sys.gravity_force(p.gravity);
  const ContactSet contacts =
      potential.contacts(sim.nodes(), find_candidates(sys.collision().mesh(), s.x_prev, s.x_prev, p.contact.dhat));
  if (p.contact.friction > 0)
    s.friction = build_friction_set(sys.collision().mesh(), s.x_prev, contacts, p.contact.dhat, p.contact.kappa,
                                    p.contact.friction, p.contact.epsv, p.dt);
  s.damping = potential.damping_matrix(sim.nodes());
  VecX g;
  SparseMatrix H;
  potential.gradient_and_hessian(s, sim.nodes(), contacts, true, g, H);
  // Prescribed coordinates are eliminated as in the Newton loop (identity rows).
  std::vector<bool> fixed(sys.num_dofs(), false);
  for (const PrescribedNode& pn : sys.prescribed())
    for (int d = 0; d < 3; ++d) fixed[3 * pn.node + d] = true;
  for (int col = 0; col < H.outerSize(); ++col)
    for (SparseMatrix::InnerIterator it(H, col); it; ++it)
      if (fixed[it.row()] || fixed[col]) it.valueRef() = it.row() == col ? 1.0 : 0.0;
  for (int i = 0; i < sys.num_dofs(); ++i)
    if (fixed[i]) g[i] = 0.0;
  out.H.push_back(std::move(H));
  out.rhs.push_back(-g);
}

/// Systems after steps first, first + 1, ..., first + count - 1 of a scene (relative to scenarios/).
NewtonSystems capture(const std::string& scene, const std::string& embedding, double dt, int first, int count) {
  SceneOverrides o;
  if (dt > 0) o.dt = dt;
  o.embedding = embedding;
  const Scene sc = load_scene(std::string(EIPC_ASSETS) + "/../" + scene, o);
  TimeStepper sim(sc.bodies, sc.params);
  for (int i = 0; i < first; ++i) sim.step();
  NewtonSystems out;
  for (int k = 0; k < count; ++k) {
    if (k > 0) sim.step();
    append_system(sim, out);
  }
  return out;
}

/// Captured once per process, on first use.
const NewtonSystems& systems(const std::string& set) {
  static std::map<std::string, NewtonSystems> cache;
  auto it = cache.find(set);
  if (it != cache.end()) return it->second;
  NewtonSystems s;
  if (set == "grasp_low") s = capture("bubble_grasp/teddy.json", "low", 0.02, 30, 5);
  if (set == "grasp_full") s = capture("bubble_grasp/teddy.json", "full", 0.02, 30, 5);
  if (set == "ball5k_full") s = capture("resolution/sphere_5k.json", "full", 0.0, 0, 1);
  return cache.emplace(set, std::move(s)).first->second;
}

template <class Solver>
void run(benchmark::State& state, const std::string& set, bool analyse_each, const std::function<void(Solver&)>& setup) {
  const NewtonSystems& sys = systems(set);
  std::vector<std::unique_ptr<Solver>> solvers;
  for (const SparseMatrix& H : sys.H) {  // one solver per matrix: the pattern may differ between them
    solvers.push_back(std::make_unique<Solver>());
    if (setup) setup(*solvers.back());
    solvers.back()->analyzePattern(H);
  }
  double residual = 0;
  for (auto _ : state) {
    for (std::size_t k = 0; k < sys.H.size(); ++k) {
      Solver& s = *solvers[k];
      if (analyse_each) s.analyzePattern(sys.H[k]);
      s.factorize(sys.H[k]);
      if (s.info() != Eigen::Success) {
        state.SkipWithError("factorisation failed");
        return;
      }
      const VecX x = s.solve(sys.rhs[k]);
      residual = std::max(residual, (sys.H[k] * x - sys.rhs[k]).norm() / sys.rhs[k].norm());
    }
  }
  state.counters["dofs"] = double(sys.H.front().rows());
  state.counters["nnz"] = double(sys.H.front().nonZeros());
  state.counters["matrices"] = double(sys.H.size());
  state.counters["rel_residual"] = residual;
}

/// The project's LinearSolver as the simulator uses it (analysis cached per pattern).
void run_linear_solver(benchmark::State& state, const std::string& set) {
  const NewtonSystems& sys = systems(set);
  LinearSolver solver;
  VecX x;
  for (auto _ : state)
    for (std::size_t k = 0; k < sys.H.size(); ++k) benchmark::DoNotOptimize(solver.solve(sys.H[k], sys.rhs[k], x));
  state.SetLabel(solver.name());
}

using Sparse = Eigen::SparseMatrix<double>;
template <class S>
void add(const std::string& name, const std::string& set, std::function<void(S&)> setup = {}) {
  for (bool analyse : {false, true})
    benchmark::RegisterBenchmark((set + "/" + name + (analyse ? "/analyze+factorize" : "/factorize")).c_str(),
                                 [=](benchmark::State& st) { run<S>(st, set, analyse, setup); })
        ->Unit(benchmark::kMillisecond);
}

#ifdef EIPC_HAVE_CHOLMOD
void cholmod_mode(Eigen::CholmodDecomposition<Sparse, Eigen::Lower>& s, int supernodal) {
  s.cholmod().supernodal = supernodal;
  s.cholmod().final_ll = supernodal == CHOLMOD_SUPERNODAL;  // supernodal is always LL^T
}
#endif

bool register_all() {
  // COLAMD (an ordering for unsymmetric matrices) measured 30x slower than AMD on
  // the grasp and 300 s per factorisation on the ball: left out. On the ball only
  // the candidates for the size threshold run (Eigen's simplicial takes ~3 s per
  // factorisation there), so the short CI mode stays short.
  for (const std::string set : {"grasp_low", "grasp_full", "ball5k_full"}) {
    const bool small = set != "ball5k_full";
    add<BlockLdlt>("block_ldlt", set);
    // The same on one thread: the gain of factorising disjoint subtrees side by side.
    benchmark::RegisterBenchmark((set + "/block_ldlt_one_thread/factorize").c_str(), [=](benchmark::State& st) {
      ThreadLimit one(1);
      run<BlockLdlt>(st, set, false, {});
    })->Unit(benchmark::kMillisecond);
    if (small) {
      add<Eigen::SimplicialLDLT<Sparse, Eigen::Lower, Eigen::AMDOrdering<int>>>("eigen_ldlt_amd", set);
      add<Eigen::SimplicialLLT<Sparse, Eigen::Lower, Eigen::AMDOrdering<int>>>("eigen_llt_amd", set);
      add<Eigen::SimplicialLDLT<Sparse, Eigen::Lower, NodeAmdOrdering>>("eigen_ldlt_nodeamd", set);
      add<Eigen::SimplicialLLT<Sparse, Eigen::Lower, NodeAmdOrdering>>("eigen_llt_nodeamd", set);
    }
#ifdef EIPC_HAVE_CHOLMOD
    using Cholmod = Eigen::CholmodDecomposition<Sparse, Eigen::Lower>;
    if (small) add<Cholmod>("cholmod_simplicial", set, [](Cholmod& s) { cholmod_mode(s, CHOLMOD_SIMPLICIAL); });
    add<Cholmod>("cholmod_supernodal", set, [](Cholmod& s) { cholmod_mode(s, CHOLMOD_SUPERNODAL); });
    if (small) add<Cholmod>("cholmod_auto", set, [](Cholmod& s) { cholmod_mode(s, CHOLMOD_AUTO); });
#endif
    benchmark::RegisterBenchmark((set + "/LinearSolver").c_str(), [=](benchmark::State& st) { run_linear_solver(st, set); })
        ->Unit(benchmark::kMillisecond);
  }
  return true;
}
const bool registered = register_all();

}  // namespace
