// DIR/sweep-plan.json: a sweep's options and its runs by index. Written by every
// `eipc sweep` before it starts anything; read by the tasks (`eipc sweep-task DIR INDEX`,
// the local pool's children and Slurm's array tasks) and by `eipc sweep --status DIR`.
#pragma once

#include "sweep_plan.hpp"

#include <string>
#include <vector>

namespace eipc::cli {

std::string plan_file_path(const std::string& dir);

/// Writes the plan (options with absolute paths, and the runs in index order) atomically.
void write_plan_file(const SweepOptions& options, const std::vector<SweepRun>& runs);

struct LoadedPlan {
  SweepOptions options;
  std::vector<SweepRun> runs;
};

/// Reads DIR/sweep-plan.json and plans the sweep again from its options; throws
/// InputError when the file is missing or damaged, or when the runs differ from the
/// written ones (the scene file or a reference changed since the plan was written).
LoadedPlan read_plan_file(const std::string& dir);

/// The run names of DIR/sweep-plan.json in index order (empty if there is none).
std::vector<std::string> planned_run_names(const std::string& dir);

}  // namespace eipc::cli
