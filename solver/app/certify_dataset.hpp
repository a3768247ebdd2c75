// `eipc certify ROOT --dataset --out DIR`: every sequence of a dataset certified by its own
// process (`eipc certify-task DIR INDEX`, which runs `eipc certify SEQ --json`), several at
// once here or as a Slurm job array, resumable, into one table (docs/certify.md, "Whole
// datasets"). DIR/dataset-plan.json lists the sequences; the tasks read it.
#pragma once

#include "slurm_backend.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace eipc::cli {

struct DatasetOptions {
  std::string root;  ///< one sequence per entry: a sub-directory, a trajectory, a series or a frame file
  std::string out;   ///< certificates, logs, records, the plan and the table
  int jobs = 0;      ///< sequences at once here (0: the number of cores)
  std::vector<std::string> certify_arguments;  ///< passed to every `eipc certify SEQ --json`
  std::optional<SlurmOptions> slurm;           ///< run the tasks as a Slurm job array
};

/// Certifies every sequence not finished by an earlier run with the same arguments, then
/// writes OUT/dataset.csv and OUT/dataset.md. Returns 2 if a sequence was bad input, else 1
/// if one is not clear, else 0; 128 + signal when interrupted (finished sequences are kept).
/// On Slurm without --wait: 0 once submitted (run it again to collect the table).
int certify_dataset(const DatasetOptions& options);

/// `eipc certify-task DIR INDEX`: certifies sequence INDEX of DIR/dataset-plan.json and
/// writes its record; returns the certification's exit code.
int certify_task(const std::string& dir, std::size_t index);

/// `eipc certify --status DIR`: one line per sequence (done, queued, running, missing).
int print_dataset_status(const std::string& dir);

}  // namespace eipc::cli
