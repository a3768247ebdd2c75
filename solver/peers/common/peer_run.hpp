// The command line and run loop shared by the peer drivers (eipc-bullet, eipc-mujoco, and
// through the Python module the Python peers, eipc-drake): the same options, summary,
// trajectory and exit codes as `eipc run` (docs/peers.md).
#pragma once

#include "peer_engine.hpp"

#include "eipc/simulation/run_loop.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace eipc::peers {

/// A scene feature the peer has no model for at all: exit code 2, naming the feature
/// and the peer (never silently dropped).
class UnsupportedFeature : public InputError {
public:
  UnsupportedFeature(const std::string& peer, const std::string& scene, const std::string& what)
      : InputError(scene + ": " + what + " cannot be mapped to " + peer) {}
};

using EngineFactory = std::function<std::unique_ptr<PeerEngine>(const Scene& scene)>;

/// Loads a scene as `eipc run` does (overrides applied) and refuses (InputError) a start
/// where bodies touch or intersect, checked exactly.
Scene load_peer_scene(const std::string& path, const SceneOverrides& overrides);
/// The same for a scene already loaded (a scene document given in memory).
void check_peer_start(const Scene& scene);

/// Positions a peer hands back must be finite and near the scene (within 1 km of the
/// origin): anything else throws SolverFailure naming the engine.
void check_peer_state(const std::vector<Positions>& x, const std::string& engine);

struct PeerRunResult {
  RunSummary summary;
  nlohmann::json usage;  ///< the engine's usage() at the end
  std::string output;    ///< the trajectory written
};

/// Runs `engine` on `scene` to its end (or to a failure, a passed `max_wall`, or an
/// Interrupted from the engine) and writes the trajectory `out`: `eipc run`'s header with
/// the engine's parameters as solver_json and the attributes engine, engine_version and
/// engine_json, one frame per output stride and at the last step; a failed run's
/// trajectory is kept, marked incomplete. `progress`: a step counter on stderr.
PeerRunResult run_peer_engine(const Scene& scene, PeerEngine& engine, const std::string& out,
                              std::optional<double> max_wall, bool progress);

/// The run summary (`--json`): `eipc run --json`'s keys that apply, plus `engine` and
/// (when not empty) `engine_usage`.
nlohmann::json peer_summary_json(const PeerRunResult& result, const std::string& engine);

/// Runs `eipc-<engine> SCENE [--dt] [--duration] [--embedding] [--out] [--set]... [--json]
/// [--max-wall]` plus the options `add_options` adds, and returns the process exit code:
/// 0 complete, 2 bad input or an unsupported feature, 3 the engine could not finish (the
/// trajectory is kept and marked incomplete), 4 internal error.
int peer_main(int argc, char** argv, const std::string& engine, const std::function<void(CLI::App&)>& add_options,
              const EngineFactory& make_engine);

}  // namespace eipc::peers
