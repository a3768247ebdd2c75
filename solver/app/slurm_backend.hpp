// `eipc sweep --slurm`: the runs of a sweep plan as one Slurm job array, one task per run,
// each task `eipc sweep-task DIR INDEX` (docs/sweep.md, "Running on a Slurm cluster").
// Files under DIR/slurm/: sweep-array.sh (the job script), jobs.txt (one line per
// submission: job id, then the plan indexes it holds), <job>_<task>.out (task output).
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace eipc::cli {

struct SlurmOptions {
  std::optional<std::string> partition;  ///< sbatch --partition
  std::optional<std::string> time;       ///< sbatch --time, per task
  std::optional<std::string> mem;        ///< sbatch --mem, per task
  int throttle = 0;                      ///< at most this many tasks at once (--array=...%N); 0: no limit
  std::vector<std::string> sbatch_args;  ///< passed to sbatch as they are
  bool wait = false;                     ///< wait for the tasks, then collect runs.csv
};

/// A task of one of the sweep's submissions that squeue still lists.
struct QueuedTask {
  std::string job_id, task_id, state;  ///< state as squeue prints it: PENDING, RUNNING, ...
};

/// Tasks of DIR/slurm/jobs.txt's submissions that Slurm still lists (pending, running,
/// completing), by plan index. Throws std::runtime_error if squeue fails.
std::map<std::size_t, QueuedTask> queued_tasks(const std::string& dir);

/// What each array task runs: `command... DIR INDEX` (INDEX: the array task id), under
/// the job name eipc-<name>, from the script DIR/slurm/<name>-array.sh.
struct ArrayTask {
  std::string name;                  ///< "sweep" (eipc sweep-task) or "certify" (eipc certify-task)
  std::vector<std::string> command;  ///< the executable and its subcommand
};

/// Writes the task's script and submits it with sbatch as an array of these plan indexes;
/// records the submission in DIR/slurm/jobs.txt. Returns the job id.
std::string submit_array(const std::string& dir, const std::vector<std::size_t>& indexes, const SlurmOptions& options,
                         const ArrayTask& task);

/// Waits until Slurm lists no task of DIR's submissions, printing the counts when they
/// change (prefixed [label]). Returns 0, or 128 + signal if a stop signal ended the wait
/// (the tasks go on).
int wait_for_tasks(const std::string& dir, const std::string& label);

/// Adds --slurm's options (partition, time, mem, throttle, sbatch-arg, wait) to `cmd`.
void add_slurm_options(CLI::App& cmd, SlurmOptions& options);

/// "0-3,5,7-8": indexes (sorted, distinct) in Slurm's --array syntax.
std::string array_ranges(const std::vector<std::size_t>& indexes);

}  // namespace eipc::cli
