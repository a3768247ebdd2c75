#include "peer_run.hpp"

#include "engine_attributes.hpp"

#include "eipc/simulation/simulation.hpp"  // the same trajectory header and start check as `eipc run`
#include "eipc/io/trajectory_file.hpp"

#include <fmt/core.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <unistd.h>

namespace eipc::peers {
namespace {

struct PeerOptions {
  std::string scene;
  std::optional<double> dt, duration;
  std::optional<std::string> embedding, out;
  std::optional<double> max_wall;
  std::vector<std::string> set;
  bool json = false;
};

struct Summary {
  long steps = 0;
  long iterations = 0;
  int iterations_max = 0;
  double simulated = 0, wall = 0;
  std::string status = "complete", reason, output;
};

/// Positions a peer hands back must be finite and near the scene: anything else means
/// its integration blew up, which ends the run like a solver failure.
void check_state(const std::vector<Positions>& x, const std::string& engine) {
  for (const Positions& p : x) {
    if (!p.allFinite()) throw SolverFailure(engine + " produced non-finite positions");
    if (p.rows() > 0 && p.cwiseAbs().maxCoeff() > 1e3)
      throw SolverFailure(engine + " diverged (a vertex is more than 1 km from the origin)");
  }
}

void print_summary(const Summary& s, const std::string& engine, bool as_json) {
  const double rtf = s.wall > 0 ? s.simulated / s.wall : 0.0;
  const double mean = s.steps > 0 ? double(s.iterations) / s.steps : 0.0;
  if (as_json) {
    nlohmann::json j = {{"status", s.status},
                        {"engine", engine},
                        {"steps", s.steps},
                        {"simulated_seconds", s.simulated},
                        {"wall_seconds", s.wall},
                        {"real_time_factor", rtf},
                        {"newton_iterations_mean", mean},
                        {"newton_iterations_max", s.iterations_max},
                        {"line_search_steps", 0},
                        {"output", s.output}};
    if (!s.reason.empty()) j["reason"] = s.reason;
    fmt::print("{}\n", j.dump(2));
    return;
  }
  fmt::print("engine            {}\n", engine);
  fmt::print("status            {}{}\n", s.status, s.reason.empty() ? "" : " (" + s.reason + ")");
  fmt::print("steps             {}\n", s.steps);
  fmt::print("simulated time    {:.4f} s\n", s.simulated);
  fmt::print("wall time         {:.3f} s\n", s.wall);
  fmt::print("real-time factor  {:.3f} (simulated / wall)\n", rtf);
  fmt::print("solver iterations {:.2f} per step (max {})\n", mean, s.iterations_max);
  fmt::print("trajectory        {}\n", s.output);
}

Frame make_frame(const PeerEngine& engine, long step, double dt, const StepStats& stats) {
  Frame f;
  f.step = step;
  f.time = step * dt;
  f.positions = engine.fine_positions();
  check_state(f.positions, engine.name());
  f.stats = stats;
  f.stats.min_distance = engine.min_distance();
  f.pair_forces = engine.contact_forces();
  return f;
}

int run(const PeerOptions& o, const std::string& engine_name, const EngineFactory& make_engine) {
  Scene scene = load_scene(o.scene, SceneOverrides{o.dt, o.duration, o.embedding, o.set});
  const double dt = scene.params.dt;
  const long steps = scene.steps, stride = scene.output_stride;  // checked by the scene loader
  {  // the same start check as eipc run: bodies must not touch or intersect at t = 0
    const TimeStepper start(scene.bodies, scene.params);
    check_initial_state(start, o.scene);
  }
  std::unique_ptr<PeerEngine> engine = make_engine(scene);
  TrajectoryHeader header = make_trajectory_header(scene, 1);
  header.solver_json = engine->parameters().dump();
  const std::string out = o.out.value_or(scene.name + "_" + engine_name + ".h5");

  TrajectoryWriter writer(out, header);
  const nlohmann::json engine_json = {{"engine", engine->name()},
                                      {"version", engine->version()},
                                      {"parameters", engine->parameters()},
                                      {"mapping", engine->mapping()}};
  write_engine_attributes(writer.partial_path(), engine->name(), engine->version(), engine_json.dump());
  StepStats first;
  writer.append(make_frame(*engine, 0, dt, first));

  Summary summary;
  summary.output = out;
  const bool progress = isatty(STDERR_FILENO);
  const auto start = std::chrono::steady_clock::now();
  StepStats pending = first;
  int code = 0;
  long current = 0;  // the step being taken (or whose frame is being stored)
  try {
    for (long n = 1; n <= steps; ++n) {
      current = n;
      if (o.max_wall && std::chrono::steady_clock::now() - start >= std::chrono::duration<double>(*o.max_wall))
        throw WallTimeExceeded("wall-time limit reached before the step");
      const auto step_start = std::chrono::steady_clock::now();
      engine->step();
      pending.wall_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - step_start).count();
      pending.newton_iterations += engine->last_iterations();
      summary.steps = n;
      summary.iterations += engine->last_iterations();
      summary.iterations_max = std::max(summary.iterations_max, engine->last_iterations());
      if (n % stride == 0 || n == steps) {
        writer.append(make_frame(*engine, n, dt, pending));
        pending = first;
      }
      if (progress) fmt::print(stderr, "\r  step {}/{}  t = {:.4f} s  ", n, steps, n * dt);
    }
    writer.finish(TrajectoryStatus::complete, "");
  } catch (const SolverFailure& e) {
    summary.status = "incomplete";
    summary.reason = fmt::format("step {}: {}", current, e.what());
    if (dynamic_cast<const WallTimeExceeded*>(&e))
      summary.reason = fmt::format("--max-wall {} s exceeded: {}", *o.max_wall, summary.reason);
    // After a wall-time stop the state is sound: keep it even when it is between frames.
    if (dynamic_cast<const WallTimeExceeded*>(&e) && summary.steps % stride != 0)
      writer.append(make_frame(*engine, summary.steps, dt, pending));
    writer.finish(TrajectoryStatus::incomplete, summary.reason);
    code = 3;
  }
  if (progress) fmt::print(stderr, "\n");
  summary.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  summary.simulated = summary.steps * dt;
  print_summary(summary, engine_name, o.json);
  if (code == 3) fmt::print(stderr, "error: {} could not finish: {}\n", engine_name, summary.reason);
  return code;
}

}  // namespace

int peer_main(int argc, char** argv, const std::string& engine, const std::function<void(CLI::App&)>& add_options,
              const EngineFactory& make_engine) {
  CLI::App app{"eipc-" + engine + ": run an eipc scene in " + engine + " and write an eipc trajectory (docs/peers.md)"};
  PeerOptions o;
  app.add_option("scene", o.scene, "scene file (JSON)")->required();
  app.add_option("--dt", o.dt, "time step (s), overrides the scene");
  app.add_option("--duration", o.duration, "simulated duration (s), overrides the scene");
  app.add_option("--embedding", o.embedding, "switch every body that has this embedding (full, affine, or a name)");
  app.add_option("--out", o.out, "trajectory file (default: <scene name>_" + engine + ".h5)");
  app.add_option("--max-wall", o.max_wall,
                 "stop cleanly after this many wall-clock seconds (exit 3, trajectory kept, marked incomplete)")
      ->check(CLI::PositiveNumber);
  app.add_option("--set", o.set, "override a scene field: key.path=value (repeatable)");
  app.add_flag("--json", o.json, "print the summary as JSON");
  // `eipc sweep` passes the options of `eipc run`; a peer runs on one thread anyway.
  int threads = 1;
  app.add_option("--threads", threads, "accepted for compatibility with eipc run (peers run on one thread)");
  add_options(app);
  // The per-scene expert settings (scenarios/peers/*.toml, docs/peers.md) as option files.
  app.set_config("--config", "", "read options from a TOML file (key = value, as the long options)");
  try {
    app.parse(argc, argv);
    return run(o, engine, make_engine);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  } catch (const InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "internal error: %s\n", e.what());
    return 4;
  }
}

}  // namespace eipc::peers
