// `eipc certify ROOT --dataset --out DIR`: every sequence of a dataset certified by its own
// `eipc certify SEQ --json` child, several at once, resumable, into one table (docs/certify.md,
// "Whole datasets").
#pragma once

#include <string>
#include <vector>

namespace eipc::cli {

struct DatasetOptions {
  std::string root;  ///< one sequence per entry: a sub-directory, a trajectory, a series or a frame file
  std::string out;   ///< certificates, logs, records and the table
  int jobs = 0;      ///< sequences at once (0: the number of cores)
  std::vector<std::string> certify_arguments;  ///< passed to every `eipc certify SEQ --json`
};

/// Certifies every sequence not finished by an earlier run with the same arguments, then
/// writes OUT/dataset.csv and OUT/dataset.md. Returns 2 if a sequence was bad input, else 1
/// if one is not clear, else 0; 128 + signal when interrupted (finished sequences are kept).
int certify_dataset(const DatasetOptions& options);

}  // namespace eipc::cli
