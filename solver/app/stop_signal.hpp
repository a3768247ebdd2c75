// SIGINT and SIGTERM as a request to stop cleanly (Ctrl-C, `kill`, Slurm's scancel and
// time limit): the handler only records the signal; the work loop checks it.
#pragma once

namespace eipc::cli {

/// Installs the handlers for SIGINT and SIGTERM, without SA_RESTART, so that a blocking
/// waitpid returns EINTR and the caller can react.
void catch_stop_signals();

/// The signal received since catch_stop_signals (SIGINT or SIGTERM), or 0.
int stop_signal();

}  // namespace eipc::cli
