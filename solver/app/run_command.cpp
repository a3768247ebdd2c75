// eipc run SCENE.json: simulate a scene, write its trajectory, print a summary.
#include "commands.hpp"
#include "eipc/dynamics/simulator.hpp"
#include "eipc/io/trajectory_file.hpp"
#include "eipc/scene/scene.hpp"
#include "eipc/util/parallel.hpp"
#include "run_setup.hpp"
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

struct Summary {
  long steps = 0;
  double simulated = 0, wall = 0;
  long newton_total = 0;
  int newton_max = 0;
  long line_search_total = 0;
  long factorization_total = 0;
  double min_distance = std::numeric_limits<double>::infinity();
  std::string status = "complete";
  std::string reason;
  std::string output;
  PhaseTimes phases;
};

/// Combines the statistics of the steps between two stored frames.
void accumulate(StepStats& into, const StepStats& s) {
  into.newton_iterations += s.newton_iterations;
  into.line_search_steps += s.line_search_steps;
  into.wall_seconds += s.wall_seconds;
  into.min_distance = std::min(into.min_distance, s.min_distance);
  into.active_pairs = s.active_pairs;
}

void print_summary(const Summary& s, bool as_json) {
  const double rtf = s.wall > 0 ? s.simulated / s.wall : 0.0;
  const double mean_newton = s.steps > 0 ? double(s.newton_total) / s.steps : 0.0;
  const double mean_factorizations = s.steps > 0 ? double(s.factorization_total) / s.steps : 0.0;
  if (as_json) {
    nlohmann::json j = {{"status", s.status},        {"steps", s.steps},
                        {"simulated_seconds", s.simulated}, {"wall_seconds", s.wall},
                        {"real_time_factor", rtf},   {"newton_iterations_mean", mean_newton},
                        {"newton_iterations_max", s.newton_max}, {"line_search_steps", s.line_search_total},
                        {"factorizations_mean", mean_factorizations},
                        {"output", s.output}};
    j["min_distance"] = std::isfinite(s.min_distance) ? nlohmann::json(s.min_distance) : nlohmann::json(nullptr);
    if (!s.reason.empty()) j["reason"] = s.reason;
    j["phase_seconds"] = {{"broad_phase", s.phases.broad_phase}, {"assembly", s.phases.assembly},
                          {"linear_solve", s.phases.linear_solve}, {"ccd", s.phases.ccd},
                          {"line_search", s.phases.line_search}};
    fmt::print("{}\n", j.dump(2));
    return;
  }
  fmt::print("status            {}{}\n", s.status, s.reason.empty() ? "" : " (" + s.reason + ")");
  fmt::print("steps             {}\n", s.steps);
  fmt::print("simulated time    {:.4f} s\n", s.simulated);
  fmt::print("wall time         {:.3f} s\n", s.wall);
  fmt::print("real-time factor  {:.3f} (simulated / wall)\n", rtf);
  fmt::print("Newton iterations {:.2f} per step (max {}), {:.2f} factorisations per step\n", mean_newton,
             s.newton_max, mean_factorizations);
  fmt::print("min distance      {}\n", std::isfinite(s.min_distance) ? fmt::format("{:.3e} m", s.min_distance)
                                                                      : std::string("none within dhat"));
  fmt::print("phases (s)        broad phase {:.3f}, assembly {:.3f}, linear solve {:.3f}, CCD {:.3f}, line search {:.3f}\n",
             s.phases.broad_phase, s.phases.assembly, s.phases.linear_solve, s.phases.ccd, s.phases.line_search);
  fmt::print("trajectory        {}\n", s.output);
}

int run(const RunOptions& o) {
  SceneOverrides overrides{o.dt, o.duration, o.embedding, o.set};
  Scene scene = load_scene(o.scene, overrides);
  if (!(scene.duration / scene.params.dt <= 1e9))
    throw InputError(o.scene + ": field 'dt': " + fmt::format("{} s gives more than 1e9 steps over {} s",
                                                             scene.params.dt, scene.duration));
  const long steps = std::lround(scene.duration / scene.params.dt);
  if (std::abs(steps * scene.params.dt - scene.duration) > 1e-9 * scene.duration)
    throw InputError(o.scene + ": field 'duration': " + fmt::format("{} s is not a whole number of steps of dt = {} s",
                                                                    scene.duration, scene.params.dt));
  const long stride = scene.output_every > 0 ? std::max(1L, std::lround(scene.output_every / scene.params.dt)) : 1;

  for (std::size_t b = 0; b < scene.bodies.size(); ++b) {
    const EmbeddingReport& r = scene.embedding_reports[b];
    if (scene.bodies[b].embedding == "full") continue;
    fmt::print(stderr, "body '{}': embedding '{}' with {} nodes, {} tets; {} of {} vertices extrapolated (farthest {:.3g} m)\n",
               scene.bodies[b].name, scene.bodies[b].embedding, scene.bodies[b].num_nodes(),
               scene.bodies[b].elements.rows(), r.extrapolated, r.vertices, r.max_outside);
  }
  ThreadLimit threads(o.threads);
  const std::string out = o.out.value_or(scene.name + ".h5");
  TrajectoryHeader header = make_header(scene, threads.threads());
  Simulator sim(std::move(scene.bodies), scene.params);
  check_initial_state(sim, o.scene);

  TrajectoryWriter writer(out, header);
  writer.append(make_frame(sim, StepStats{0, 0, 0.0, sim.current_min_distance(), 0}));

  Summary summary;
  summary.output = out;
  const bool progress = isatty(STDERR_FILENO);
  const auto start = std::chrono::steady_clock::now();
  if (o.max_wall)
    sim.set_deadline(start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                 std::chrono::duration<double>(*o.max_wall)));
  StepStats pending;
  pending.min_distance = std::numeric_limits<double>::infinity();
  int code = 0;
  // SIGINT/SIGTERM (Ctrl-C, kill, Slurm's scancel) end the run after the current step,
  // with the trajectory kept and marked incomplete, like a solver failure (exit 3).
  catch_stop_signals();
  try {
    for (long n = 1; n <= steps; ++n) {
      if (const int sig = stop_signal())
        throw SolverFailure(fmt::format("stopped by {} before the step", sig == SIGINT ? "SIGINT" : "SIGTERM"));
      if (o.max_wall && std::chrono::steady_clock::now() - start >= std::chrono::duration<double>(*o.max_wall))
        throw WallTimeExceeded("wall-time limit reached before the step");
      const StepStats s = sim.step();
      accumulate(pending, s);
      summary.steps = n;
      summary.newton_total += s.newton_iterations;
      summary.newton_max = std::max(summary.newton_max, s.newton_iterations);
      summary.line_search_total += s.line_search_steps;
      summary.factorization_total += s.factorizations;
      summary.min_distance = std::min(summary.min_distance, s.min_distance);
      if (n % stride == 0 || n == steps) {
        writer.append(make_frame(sim, pending));
        pending = StepStats{};
        pending.min_distance = std::numeric_limits<double>::infinity();
      }
      if (progress)
        fmt::print(stderr, "\r  step {}/{}  t = {:.4f} s  newton {}  ", n, steps, sim.time(), s.newton_iterations);
    }
    writer.finish(TrajectoryStatus::complete, "");
  } catch (const SolverFailure& e) {
    summary.status = "incomplete";
    summary.reason = fmt::format("step {}: {}", summary.steps + 1, e.what());
    if (dynamic_cast<const WallTimeExceeded*>(&e))
      summary.reason = fmt::format("--max-wall {} s exceeded: {}", *o.max_wall, summary.reason);
    // Keep the last completed state even when it is between output frames.
    if (summary.steps % stride != 0) writer.append(make_frame(sim, pending));
    writer.finish(TrajectoryStatus::incomplete, summary.reason);
    code = 3;
  }
  if (progress) fmt::print(stderr, "\n");
  summary.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  summary.simulated = sim.time();
  summary.phases = sim.phase_times();
  print_summary(summary, o.json);
  if (code == 3) fmt::print(stderr, "error: solver failed at {}\n", summary.reason);
  return code;
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
