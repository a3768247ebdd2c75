// `eipc sweep --status DIR`: one line per run of DIR/sweep-plan.json (docs/sweep.md).
#pragma once

#include <string>

namespace eipc::cli {

/// Prints the table on stdout; returns 0 (2, via InputError, if DIR has no plan).
int print_sweep_status(const std::string& dir);

}  // namespace eipc::cli
