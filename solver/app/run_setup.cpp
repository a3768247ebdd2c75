#include "run_setup.hpp"

#include "eipc/certify/simulator_check.hpp"

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
    if (b.fine_element.size() > 0)
      tb.embedding_data = EmbeddingData{b.node_rest, b.elements, b.fine_element, b.fine_map.weights};
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

void check_initial_state(const Simulator& sim, const std::string& scene_path) {
  const certify::FrameCheck check = certify::check_simulator_state(sim);
  if (check.ok()) return;
  const certify::Violation& v = check.examples.front();
  const auto name = [&](int b) { return b >= 0 ? "'" + sim.system().bodies()[b].name + "'" : std::string("?"); };
  std::string what;
  switch (v.kind) {
    case certify::ViolationKind::degenerate_triangle:
      what = "body " + name(v.body_a) + " has a degenerate surface triangle " + std::to_string(v.index_a);
      break;
    case certify::ViolationKind::ground:
      what = "body " + name(v.body_a) + " vertex " + std::to_string(v.index_a) + " is at or below the ground";
      break;
    case certify::ViolationKind::triangle_pair:
      what = "surface triangles of bodies " + name(v.body_a) + " and " + name(v.body_b) + " touch or intersect";
      break;
    default:
      what = "body " + name(v.body_a) + " starts inside body " + name(v.body_b);
  }
  throw InputError(scene_path + ": the initial configuration is not intersection free (" + what + "; " +
                   std::to_string(check.total()) + " violations in total, checked exactly)");
}

}  // namespace eipc::cli
