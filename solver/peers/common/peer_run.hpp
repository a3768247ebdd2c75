// The command line and run loop shared by the peer drivers (eipc-bullet, eipc-mujoco):
// the same options, summary, trajectory and exit codes as `eipc run` (docs/peers.md).
#pragma once

#include "peer_engine.hpp"

#include <CLI/CLI.hpp>

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

/// Runs `eipc-<engine> SCENE [--dt] [--duration] [--embedding] [--out] [--set]... [--json]
/// [--max-wall]` plus the options `add_options` adds, and returns the process exit code:
/// 0 complete, 2 bad input or an unsupported feature, 3 the engine could not finish (the
/// trajectory is kept and marked incomplete), 4 internal error.
int peer_main(int argc, char** argv, const std::string& engine, const std::function<void(CLI::App&)>& add_options,
              const EngineFactory& make_engine);

}  // namespace eipc::peers
