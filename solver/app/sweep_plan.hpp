// What `eipc sweep` runs: one run per (embedding, dt), its files and its command line.
// The directory layout is documented in docs/sweep.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace eipc::cli {

struct SweepOptions {
  std::string scene, out;
  std::vector<double> dts;
  std::vector<std::string> embeddings;
  std::vector<std::string> engines{"eipc"};  ///< "eipc" or a peer with a binary eipc-<engine> beside eipc
  int jobs = 0;  ///< simultaneous children (0: number of cores)
  std::optional<std::string> reference;
  std::optional<double> reference_dt;  ///< make missing references at this step (tasks of the sweep)
  std::optional<double> duration;
  std::vector<std::string> set;
  /// Directory of the peers' per-scene settings, <engine>_<scenario>.toml, each passed to its
  /// peer's runs as --config (docs/peers.md); empty: the drivers' built-in defaults.
  std::string peer_config;
  bool no_certify = false;
  bool continuous = false;  ///< certify with --continuous as well
};

/// A fine-step reference made by the sweep (REF/<scenario>/<embedding>.h5) is a run of its
/// own: same files, no certificate, not in runs.csv.
enum class RunKind { run, reference };

/// One simulation of the sweep. Its files are DIR/<name>.{h5,json,log,certify.json}.
/// (A new dimension of the sweep, such as the simulator engine, is one more field here,
/// in `name`, in `command` and in run_parameters.)
struct SweepRun {
  RunKind kind = RunKind::run;
  std::string scenario, embedding;
  std::string engine = "eipc";
  std::string program;  ///< executable of a peer engine (empty: this eipc binary)
  double dt = 0.0;
  std::string name;  ///< <scenario>_<embedding>_dt<dt>, <scenario>_<engine>_<embedding>_dt<dt> for peers
  std::string dir;
  std::vector<std::string> command;  ///< eipc run (or peer) arguments, without the executable
  std::string scene_hash;            ///< FNV-1a 64 of the scene file's bytes, hex

  std::string path(const std::string& suffix) const { return dir + "/" + name + suffix; }
  std::string trajectory() const { return path(".h5"); }
  std::string record() const { return path(".json"); }
  std::string log() const { return path(".log"); }
  std::string certificate() const { return path(".certify.json"); }
};

/// Shortest text that reads back as exactly `x` (names files and child arguments).
std::string exact_number(double x);

/// Scenario name as `eipc run` sees it: the scene's "name" after the --set overrides,
/// else the file stem. Throws InputError for an unreadable scene.
std::string scenario_name(const std::string& scene, const std::vector<std::string>& set);

/// The per-scene settings file of a peer engine in `dir` (<engine>_<scenario>.toml; the
/// analysis scripts use the same name), or "" when `dir` is empty or has none.
std::string peer_settings_file(const std::string& dir, const std::string& engine, const std::string& scenario);

/// Every (engine, embedding, dt) combination in the order given, engines outermost; first,
/// with --reference-dt, an eipc reference run per embedding whose REF/<scenario>/<embedding>.h5
/// is missing or made by a sweep (its record or attempt file is beside it); a reference the
/// sweep did not make is only read. A peer engine's binary is eipc-<engine> in the directory
/// of `eipc_executable`; its runs get --config <peer_config>/<engine>_<scenario>.toml when
/// that file exists.
std::vector<SweepRun> plan_sweep(const SweepOptions& options, const std::string& eipc_executable = "");

}  // namespace eipc::cli
