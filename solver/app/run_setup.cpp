#include "run_setup.hpp"

#include <nlohmann/json.hpp>

namespace eipc::cli {

TrajectoryHeader make_header(const Scene& scene, int threads) {
  const SimulationParams& p = scene.params;
  TrajectoryHeader h;
  h.scenario = scene.name;
  h.scene_json = scene.json.dump();
  h.solver_json = nlohmann::json{{"newton_tol", p.solver.newton_tol},
                                 {"max_newton_iters", p.solver.max_newton_iters},
                                 {"ccd_separation_ratio", p.solver.ccd_separation_ratio}}
                      .dump();
  h.contact_json = nlohmann::json{{"kappa", p.contact.kappa},
                                  {"dhat", p.contact.dhat},
                                  {"epsv", p.contact.epsv},
                                  {"friction", p.contact.friction}}
                       .dump();
  h.dt = p.dt;
  h.duration = scene.duration;
  h.ground_height = p.ground_height;
  h.code_version = EIPC_VERSION;
  h.threads = threads;
  for (const Body& b : scene.bodies) {
    TrajectoryBody tb;
    tb.name = b.name;
    tb.embedding = b.embedding;
    tb.kinematic = b.kinematic;
    tb.rest = b.fine_rest;
    tb.surface = b.surface;
    tb.tets = b.fine_tets;
    h.bodies.push_back(std::move(tb));
  }
  return h;
}

Frame make_frame(const Simulator& sim, const StepStats& stats) {
  Frame f;
  f.step = sim.step_index();
  f.time = sim.time();
  f.positions = sim.fine_positions();
  f.stats = stats;
  f.pair_forces = sim.contact_forces();
  return f;
}

}  // namespace eipc::cli
