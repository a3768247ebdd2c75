// Child processes of the sweep: the same eipc binary run with other arguments.
#pragma once

#include <cstddef>
#include <functional>
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

/// The local pool of a sweep or a dataset: runs `command... DIR INDEX` for each index,
/// `jobs` at once (their output goes to this process's streams), calling
/// `on_finished(index, exit_code)` as each ends. On a stop signal, passes SIGTERM on to the
/// running tasks, waits for them, calls `on_stopped(index)` for each and returns
/// 128 + signal; else 0.
int run_tasks(const std::vector<std::string>& command, const std::string& dir, const std::vector<std::size_t>& indexes,
              std::size_t jobs, const std::function<void(std::size_t, int)>& on_finished,
              const std::function<void(std::size_t)>& on_stopped);

}  // namespace eipc::cli
