// One run of a sweep plan as both backends execute it (the local pool as a child
// `eipc sweep-task DIR INDEX`, Slurm as an array task): simulate, then certify, writing
// the run's files (docs/sweep.md). The same code, so both produce the same files.
#pragma once

#include "sweep_plan.hpp"

#include <string>

namespace eipc::cli {

/// What a run of the plan still needs; nothing means finished earlier.
struct RunNeeds {
  bool simulate = false, certify = false;
  bool any() const { return simulate || certify; }
};
RunNeeds run_needs(const SweepRun& run, const SweepOptions& options);

/// The name progress lines and the status view show: the file stem, or the reference's path.
std::string display_name(const SweepRun& run);

/// Executes the run: the child `eipc run` (unless finished earlier), then the child
/// `eipc certify` (unless certified, a reference, or --no-certify), each followed by its
/// record. DIR/<name>.attempt.json says who executes it (host, pid, Slurm job and task
/// ids) and, at the end, how it ended. A stop signal (catch_stop_signals) is passed on
/// to the child: a stopped simulation keeps its trajectory marked incomplete and is
/// recorded so; a stopped certification writes no certificate. Progress on stderr.
/// Returns 128 + signal when stopped, else the simulation's exit code (0 if skipped).
int execute_run(const SweepRun& run, const SweepOptions& options, const std::string& executable);

}  // namespace eipc::cli
