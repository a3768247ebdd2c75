// Subcommands of the eipc command line (docs/design.md §6). Each returns the exit code:
// 0 success, 1 a check failed, 2 bad input, 3 the solver could not finish.
#pragma once

#include "eipc/certify/dataset_input.hpp"

#include <CLI/CLI.hpp>

#include <string>

namespace eipc::cli {

void add_run_command(CLI::App& app);
void add_ccd_command(CLI::App& app);
void add_certify_command(CLI::App& app);
void add_embed_command(CLI::App& app);
void add_error_command(CLI::App& app);
void add_sweep_command(CLI::App& app);
void add_report_command(CLI::App& app);
void add_fields_command(CLI::App& app);
void add_forces_command(CLI::App& app);
void add_convert_command(CLI::App& app);

/// `--bodies objects|components`: how a dataset's files split into bodies (eipc certify,
/// eipc convert; docs/certify.md, "Bodies").
CLI::Option* add_bodies_option(CLI::App& cmd, certify::BodyRule& rule, const std::string& help);

/// "error: unexpected argument(s) ..." for CLI11's ExtrasError `what`: the arguments in
/// the order given (CLI11 2.1 lists them last first), with the closest option of the
/// subcommand where one is likely meant.
std::string unexpected_arguments_message(const CLI::App& app, int argc, char** argv, const std::string& what);

}  // namespace eipc::cli
