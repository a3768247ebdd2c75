// eipc error RUN.h5 REFERENCE.h5: time-averaged error E(h) against a reference (docs/design.md §7).
#include "commands.hpp"
#include "eipc/analysis/trajectory_error.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

namespace eipc::cli {

namespace {

struct ErrorCommandOptions {
  std::string run, reference;
  ErrorOptions error;
  bool json = false;
};

void print_error(const ErrorCommandOptions& o, const TrajectoryError& e) {
  for (const BodyError& b : e.bodies)
    if (b.embedding != b.reference_embedding)
      fmt::print(stderr, "warning: body '{}' is '{}' in {} but '{}' in the reference {}: E(h) then mixes the "
                         "method's time-step error with the difference between the methods (docs/error-metric.md: "
                         "each method against its own reference)\n",
                 b.name, b.embedding, o.run, b.reference_embedding, o.reference);
  if (o.json) {
    nlohmann::json bodies = nlohmann::json::array();
    for (const BodyError& b : e.bodies)
      bodies.push_back({{"name", b.name}, {"vertices", b.vertices}, {"error", b.error}, {"embedding", b.embedding},
                        {"reference_embedding", b.reference_embedding}});
    const nlohmann::json j = {{"format", "eipc-error"}, {"version", 1},           {"run", o.run},
                              {"reference", o.reference}, {"error", e.error},     {"frames", e.frames},
                              {"vertices", e.vertices},   {"dt_run", e.dt_run},   {"dt_ref", e.dt_ref},
                              {"step_ratio", e.step_ratio}, {"first_time", e.first_time}, {"last_time", e.last_time},
                              {"worst_time", e.worst_time}, {"worst_error", e.worst_error}, {"bodies", bodies}};
    fmt::print("{}\n", j.dump(2));
    return;
  }
  fmt::print("E(h)        {:.6e} m\n", e.error);
  fmt::print("frames      {} (t = {} .. {} s), dt {} s vs reference {} s (ratio {})\n", e.frames, e.first_time,
             e.last_time, e.dt_run, e.dt_ref, e.step_ratio);
  fmt::print("vertices    {}\n", e.vertices);
  for (const BodyError& b : e.bodies) fmt::print("  body {:<16} {:>8} vertices  {:.6e} m\n", b.name, b.vertices, b.error);
  fmt::print("worst frame t = {} s: RMS {:.6e} m\n", e.worst_time, e.worst_error);
}

}  // namespace

void add_error_command(CLI::App& app) {
  auto opts = std::make_shared<ErrorCommandOptions>();
  CLI::App* cmd = app.add_subcommand("error", "Time-averaged error E(h) of a run against a reference trajectory "
                                              "(RMS over vertices and stored frames, matched by step index)");
  cmd->add_option("run", opts->run, "run trajectory (.h5)")->required();
  cmd->add_option("reference", opts->reference, "reference trajectory (.h5), a finer step that divides the run's")
      ->required();
  cmd->add_option("--body", opts->error.bodies, "compare this body (repeatable; default: every non-kinematic body)");
  cmd->add_flag("--allow-incomplete", opts->error.allow_incomplete,
                "compare the stored frames of trajectories marked incomplete");
  cmd->add_flag("--json", opts->json, "machine-readable output");
  cmd->callback([opts] { print_error(*opts, trajectory_error(opts->run, opts->reference, opts->error)); });
}

}  // namespace eipc::cli
