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

void print_summary(const PeerRunResult& r, const std::string& engine, bool as_json) {
  const nlohmann::json j = peer_summary_json(r, engine);
  if (as_json) {
    fmt::print("{}\n", j.dump(2));
    return;
  }
  const std::string reason = j.value("reason", "");
  fmt::print("engine            {}\n", engine);
  fmt::print("status            {}{}\n", j["status"].get<std::string>(), reason.empty() ? "" : " (" + reason + ")");
  fmt::print("steps             {}\n", r.summary.steps);
  fmt::print("simulated time    {:.4f} s\n", r.summary.simulated_seconds);
  fmt::print("wall time         {:.3f} s\n", r.summary.wall_seconds);
  fmt::print("real-time factor  {:.3f} (simulated / wall)\n", j["real_time_factor"].get<double>());
  fmt::print("solver iterations {:.2f} per step (max {})\n", j["newton_iterations_mean"].get<double>(),
             r.summary.newton_max);
  fmt::print("trajectory        {}\n", r.output);
  if (!r.usage.empty()) fmt::print("engine usage      {}\n", r.usage.dump());
}

/// A peer engine as the run loop's Stepper (eipc/simulation/run_loop.hpp). Its state after
/// a failed step is the failed one, so the loop does not store it.
class PeerStepper final : public Stepper {
public:
  PeerStepper(PeerEngine& engine, double dt) : engine_(engine), dt_(dt) {}
  StepStats step() override {
    const auto start = std::chrono::steady_clock::now();
    engine_.step();
    check_peer_state(engine_.fine_positions(), engine_.name());  // a blown-up state ends the run here
    ++step_;
    StepStats s;
    s.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    s.newton_iterations = engine_.last_iterations();  // the engine's internal steps
    return s;
  }
  long step_index() const override { return step_; }
  double time() const override { return step_ * dt_; }
  Frame frame(const StepStats& stats) const override {
    Frame f;
    f.step = step_;
    f.time = step_ * dt_;
    f.positions = engine_.fine_positions();
    f.stats = stats;
    f.stats.min_distance = engine_.min_distance();  // the engine's own, at the stored state
    f.pair_forces = engine_.contact_forces();
    return f;
  }
  bool keeps_state_on_failure() const override { return false; }

private:
  PeerEngine& engine_;
  double dt_;
  long step_ = 0;
};

int run(const PeerOptions& o, const std::string& engine_name, const EngineFactory& make_engine) {
  const Scene scene = load_peer_scene(o.scene, SceneOverrides{o.dt, o.duration, o.embedding, o.set});
  std::unique_ptr<PeerEngine> engine = make_engine(scene);
  const std::string out = o.out.value_or(scene.name + "_" + engine_name + ".h5");
  const PeerRunResult result = run_peer_engine(scene, *engine, out, o.max_wall, isatty(STDERR_FILENO));
  print_summary(result, engine_name, o.json);
  if (result.summary.failed) {
    fmt::print(stderr, "error: {} could not finish: {}\n", engine_name, result.summary.reason);
    return 3;
  }
  return 0;
}

}  // namespace

void check_peer_state(const std::vector<Positions>& x, const std::string& engine) {
  for (const Positions& p : x) {
    if (!p.allFinite()) throw SolverFailure(engine + " produced non-finite positions");
    if (p.rows() > 0 && p.cwiseAbs().maxCoeff() > 1e3)
      throw SolverFailure(engine + " diverged (a vertex is more than 1 km from the origin)");
  }
}

void check_peer_start(const Scene& scene) {
  // the same start check as eipc run: bodies must not touch or intersect at t = 0
  const TimeStepper start(scene.bodies, scene.params);
  check_initial_state(start, scene.path);
}

Scene load_peer_scene(const std::string& path, const SceneOverrides& overrides) {
  Scene scene = load_scene(path, overrides);
  check_peer_start(scene);
  return scene;
}

PeerRunResult run_peer_engine(const Scene& scene, PeerEngine& engine, const std::string& out,
                              std::optional<double> max_wall, bool progress) {
  const double dt = scene.params.dt;
  const long steps = scene.steps, stride = scene.output_stride;  // checked by the scene loader
  TrajectoryHeader header = make_trajectory_header(scene, 1);
  header.solver_json = engine.parameters().dump();

  TrajectorySink sink(out, header);
  const nlohmann::json engine_json = {{"engine", engine.name()},
                                      {"version", engine.version()},
                                      {"parameters", engine.parameters()},
                                      {"mapping", engine.mapping()}};
  write_engine_attributes(trajectory_partial_path(out), engine.name(), engine.version(), engine_json.dump());

  PeerStepper stepper(engine, dt);
  check_peer_state(engine.fine_positions(), engine.name());
  RunLoop loop(stepper, steps, stride, StepStats{});
  loop.add_sink(sink);
  if (max_wall) loop.set_wall_limit(*max_wall, fmt::format("--max-wall {} s exceeded", *max_wall));
  try {
    while (!loop.finished()) {
      loop.step();
      if (progress) fmt::print(stderr, "\r  step {}/{}  t = {:.4f} s  ", stepper.step_index(), steps, stepper.time());
    }
  } catch (const SolverFailure&) {
    // the loop has finished the trajectory as incomplete and recorded the reason
  }
  if (progress) fmt::print(stderr, "\n");
  return PeerRunResult{loop.summary(), engine.usage(), out};
}

nlohmann::json peer_summary_json(const PeerRunResult& r, const std::string& engine) {
  const RunSummary& s = r.summary;
  const double rtf = s.wall_seconds > 0 ? s.simulated_seconds / s.wall_seconds : 0.0;
  const double mean = s.steps > 0 ? double(s.newton_total) / s.steps : 0.0;
  nlohmann::json j = {{"status", s.failed ? "incomplete" : "complete"},
                      {"engine", engine},
                      {"steps", s.steps},
                      {"simulated_seconds", s.simulated_seconds},
                      {"wall_seconds", s.wall_seconds},
                      {"real_time_factor", rtf},
                      {"newton_iterations_mean", mean},
                      {"newton_iterations_max", s.newton_max},
                      {"line_search_steps", 0},
                      {"output", r.output}};
  if (!s.reason.empty()) j["reason"] = s.reason;
  if (!r.usage.empty()) j["engine_usage"] = r.usage;
  return j;
}

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
