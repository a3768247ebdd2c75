// DIR/runs.csv: one row per run record in a sweep directory (columns in docs/sweep.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace eipc::cli {

struct RunRow {
  std::string scenario, embedding, engine;
  std::string file;  ///< the record's file name (tie-break of the sort)
  double dt = 0.0;
  std::string status, certified;
  int exit_code = 0;
  std::vector<std::string> cells;  ///< the CSV fields, in column order
};

/// The column names, in order.
const std::vector<std::string>& runs_csv_columns();

/// Reads every run record (DIR/*.json of format "eipc-sweep-run"), sorted by scenario,
/// embedding, dt, then engine. With a reference directory, fills `error` with E(h) against
/// REF/<scenario>/<embedding>.h5 (a peer engine's runs: REF/<scenario>/<engine>_<embedding>.h5)
/// for complete runs where that file exists (warnings on stderr when it cannot be computed).
std::vector<RunRow> collect_runs(const std::string& dir, const std::optional<std::string>& reference);

/// Writes DIR/runs.csv atomically from the rows.
void write_runs_csv(const std::string& dir, const std::vector<RunRow>& rows);

}  // namespace eipc::cli
