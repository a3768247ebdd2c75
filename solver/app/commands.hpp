// Subcommands of the eipc command line (docs/design.md §6). Each returns the exit code:
// 0 success, 1 a check failed, 2 bad input, 3 the solver could not finish.
#pragma once

#include <CLI/CLI.hpp>

namespace eipc::cli {

void add_run_command(CLI::App& app);
void add_ccd_command(CLI::App& app);
void add_certify_command(CLI::App& app);
void add_embed_command(CLI::App& app);
void add_error_command(CLI::App& app);
void add_sweep_command(CLI::App& app);
void add_report_command(CLI::App& app);
void add_fields_command(CLI::App& app);

}  // namespace eipc::cli
