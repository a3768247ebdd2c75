// Child processes of the sweep: the same eipc binary run with other arguments.
#pragma once

#include <string>
#include <sys/types.h>
#include <vector>

namespace eipc::cli {

/// Path of the running executable (/proc/self/exe), so children use the same build.
std::string self_executable();

/// Starts `argv` (argv[0] is the executable path) with stdout and stderr written to the
/// given files (truncated; an empty path: the parent's stream). Returns the child's pid; throws std::runtime_error on failure.
pid_t spawn_child(const std::vector<std::string>& argv, const std::string& stdout_path,
                  const std::string& stderr_path);

/// Exit code of a waitpid status: the code for a normal exit, 128 + signal if killed.
int exit_code_of(int wait_status);

/// Waits for the child and returns its exit code, passing a stop signal (stop_signal.hpp)
/// on to it once as SIGTERM. Polls (20 per second) rather than blocking in waitpid, so a
/// signal arriving just before the wait is not missed.
int wait_passing_on_stop(pid_t pid);

}  // namespace eipc::cli
