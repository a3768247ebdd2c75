// Per-run files of a sweep: the run record (DIR/<name>.json) and the certificate
// (DIR/<name>.certify.json). They are the sweep's memory: resuming and runs.csv read them.
#pragma once

#include "sweep_plan.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace eipc::cli {

/// What makes two runs the same run (file paths aside): compared when resuming.
nlohmann::json run_parameters(const SweepRun& run, const SweepOptions& options);

/// Writes the run record from the finished child: its exit code, its stdout (the
/// `eipc run --json` summary) and the tail of its stderr. Returns the record.
nlohmann::json write_run_record(const SweepRun& run, const SweepOptions& options, int exit_code,
                                const std::string& stdout_path);

/// Writes the certificate from the finished `eipc certify --json` child.
void write_certificate(const SweepRun& run, int exit_code, const std::string& stdout_path);

/// A run is finished when its record says it completed with these parameters and its
/// trajectory opens as complete. Anything else (no record, other parameters, a failed
/// or incomplete run, a missing or partial trajectory) is run again.
bool run_is_finished(const SweepRun& run, const SweepOptions& options);

/// True when the run has a certificate from a check at least as strict as requested.
bool has_certificate(const SweepRun& run, const SweepOptions& options);

/// "yes", "no", "inconclusive", or "" (no certificate) for a certificate file.
std::string certified_value(const std::string& certificate_path);

/// JSON from a file, or a discarded value if it is missing or not JSON.
nlohmann::json read_json_file(const std::string& path);
/// Writes `text` to path atomically (a temporary file renamed over it).
void write_file_atomically(const std::string& path, const std::string& text);
/// The last `max_chars` characters of a text file (error messages of children).
std::string file_tail(const std::string& path, std::size_t max_chars = 2000);

}  // namespace eipc::cli
