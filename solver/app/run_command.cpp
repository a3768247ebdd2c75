// eipc run SCENE.json: simulate a scene, write its trajectory, print a summary.
#include "commands.hpp"
#include "eipc/io/output_path.hpp"
#include "eipc/simulation/simulation.hpp"
#include "stop_signal.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <csignal>
#include <limits>
#include <unistd.h>

namespace eipc::cli {

namespace {

struct RunOptions {
  std::string scene;
  std::optional<double> dt, duration;
  std::optional<std::string> embedding, out;
  int threads = 0;
  std::optional<double> max_wall;  ///< seconds; the run stops cleanly (exit 3) when exceeded
  std::vector<std::string> set;
  bool json = false;
};

void print_summary(const RunSummary& s, const std::string& output, bool as_json) {
  const double rtf = s.wall_seconds > 0 ? s.simulated_seconds / s.wall_seconds : 0.0;
  const double mean_newton = s.steps > 0 ? double(s.newton_total) / s.steps : 0.0;
  const double mean_factorizations = s.steps > 0 ? double(s.factorization_total) / s.steps : 0.0;
  const double mean_friction_rounds = s.steps > 0 ? double(s.friction_rounds_total) / s.steps : 0.0;
  if (as_json) {
    nlohmann::json j = {{"status", s.failed ? "incomplete" : "complete"},        {"steps", s.steps},
                        {"simulated_seconds", s.simulated_seconds}, {"wall_seconds", s.wall_seconds},
                        {"real_time_factor", rtf},   {"newton_iterations_mean", mean_newton},
                        {"newton_iterations_max", s.newton_max}, {"line_search_steps", s.line_search_total},
                        {"factorizations_mean", mean_factorizations}, {"shifted_factorizations", s.shifted_total},
                        {"friction_rounds_mean", mean_friction_rounds}, {"friction_rounds_max", s.friction_rounds_max},
                        {"output", output}};
    j["min_distance"] = std::isfinite(s.min_distance) ? nlohmann::json(s.min_distance) : nlohmann::json(nullptr);
    if (!s.reason.empty()) j["reason"] = s.reason;
    j["phase_seconds"] = {{"broad_phase", s.phases.broad_phase}, {"assembly", s.phases.assembly},
                          {"linear_solve", s.phases.linear_solve}, {"ccd", s.phases.ccd},
                          {"line_search", s.phases.line_search}};
    fmt::print("{}\n", j.dump(2));
    return;
  }
  fmt::print("status            {}{}\n", s.failed ? "incomplete" : "complete", s.reason.empty() ? "" : " (" + s.reason + ")");
  fmt::print("steps             {}\n", s.steps);
  fmt::print("simulated time    {:.4f} s\n", s.simulated_seconds);
  fmt::print("wall time         {:.3f} s\n", s.wall_seconds);
  fmt::print("real-time factor  {:.3f} (simulated / wall)\n", rtf);
  fmt::print("Newton iterations {:.2f} per step (max {}), {:.2f} factorisations per step\n", mean_newton,
             s.newton_max, mean_factorizations);
  fmt::print("friction rounds   {:.2f} per step (max {})\n", mean_friction_rounds, s.friction_rounds_max);
  fmt::print("min distance      {}\n", std::isfinite(s.min_distance) ? fmt::format("{:.3e} m", s.min_distance)
                                                                      : std::string("none within dhat"));
  fmt::print("phases (s)        broad phase {:.3f}, assembly {:.3f}, linear solve {:.3f}, CCD {:.3f}, line search {:.3f}\n",
             s.phases.broad_phase, s.phases.assembly, s.phases.linear_solve, s.phases.ccd, s.phases.line_search);
  fmt::print("trajectory        {}\n", output);
}

int run(const RunOptions& o) {
  if (o.out) prepare_output_file(*o.out, "--out");  // before any work; the default name needs the scene
  Scene scene = load_scene(o.scene, SceneOverrides{o.dt, o.duration, o.embedding, o.set});
  for (std::size_t b = 0; b < scene.bodies.size(); ++b) {
    const EmbeddingReport& r = scene.embedding_reports[b];
    if (scene.bodies[b].embedding == "full") continue;
    const Body& body = scene.bodies[b];
    const std::string elements = body.shell_thickness > 0.0 ? fmt::format("{} triangles", body.shell_elements.rows())
                                                            : fmt::format("{} tets", body.elements.rows());
    fmt::print(stderr, "body '{}': embedding '{}' with {} nodes, {}{}; {} of {} vertices extrapolated (farthest {:.3g} m)\n",
               body.name, body.embedding, body.num_nodes(), elements,
               r.split_tets ? fmt::format(" ({} tets copied for disconnected parts)", r.split_tets) : "",
               r.extrapolated, r.vertices, r.max_outside);
  }
  const std::string out = o.out.value_or(scene.name + ".h5");
  Simulation sim(std::move(scene), o.threads);
  for (const std::string& n : sim.scene().notes) fmt::print(stderr, "note: {}\n", n);
  for (const std::string& w : sim.warnings()) fmt::print(stderr, "warning: {}\n", w);
  TrajectorySink trajectory(out, sim.header());
  sim.add_sink(trajectory);
  if (o.max_wall) sim.set_wall_limit(*o.max_wall, fmt::format("--max-wall {} s exceeded", *o.max_wall));
  // SIGINT/SIGTERM (Ctrl-C, kill, Slurm's scancel) end the run within one Newton iteration,
  // the trajectory kept up to the last completed step and marked incomplete (exit 3).
  catch_stop_signals();
  sim.set_stop_check([]() -> std::optional<std::string> {
    if (const int sig = stop_signal()) return std::string(sig == SIGINT ? "SIGINT" : "SIGTERM");
    return std::nullopt;
  });

  const bool progress = isatty(STDERR_FILENO);
  const RunSummary& summary = sim.run([&](const Simulation& s, const StepStats& step) {
    if (progress)
      fmt::print(stderr, "\r  step {}/{}  t = {:.4f} s  newton {}  ", s.step_index(), s.scene().steps, s.time(),
                 step.newton_iterations);
  });
  if (progress) fmt::print(stderr, "\n");
  print_summary(summary, out, o.json);
  if (!summary.failed) return 0;
  if (summary.interrupted)
    fmt::print(stderr, "interrupted: {}; the trajectory up to step {} is kept in {} (incomplete)\n", summary.reason,
               summary.steps, out);
  else
    fmt::print(stderr, "error: solver failed at {}\n", summary.reason);
  return 3;
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto opts = std::make_shared<RunOptions>();
  CLI::App* cmd = app.add_subcommand("run", "Simulate a scene and write its trajectory (HDF5)");
  cmd->add_option("scene", opts->scene, "scene file (JSON)")->required();
  cmd->add_option("--dt", opts->dt, "time step (s), overrides the scene");
  cmd->add_option("--embedding", opts->embedding, "switch every body that has this embedding (full, affine, or a name)");
  cmd->add_option("--duration", opts->duration, "simulated duration (s), overrides the scene");
  cmd->add_option("--out", opts->out, "trajectory file (default: <scene name>.h5)");
  cmd->add_option("--threads", opts->threads, "worker threads (0: all cores)")->check(CLI::NonNegativeNumber);
  cmd->add_option("--max-wall", opts->max_wall,
                  "stop cleanly after this many wall-clock seconds (exit 3, trajectory kept, marked incomplete)")
      ->check(CLI::PositiveNumber & CLI::Range(0.0, 1e9));  // 1e9 s keeps the deadline in steady_clock's range
  cmd->add_option("--set", opts->set, "override a scene field: key.path=value (repeatable)");
  cmd->add_flag("--json", opts->json, "print the summary as JSON");
  cmd->callback([opts] {
    const int code = run(*opts);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace eipc::cli
