#include "child_process.hpp"

#include "stop_signal.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <map>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>

extern char** environ;

namespace eipc::cli {

std::string self_executable() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

pid_t spawn_child(const std::vector<std::string>& argv, const std::string& stdout_path,
                  const std::string& stderr_path) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!stdout_path.empty())
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!stderr_path.empty())
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(rc));
  return pid;
}

int wait_passing_on_stop(pid_t pid) {
  bool passed_on = false;
  for (;;) {
    if (stop_signal() && !passed_on) {
      ::kill(pid, SIGTERM);
      passed_on = true;
    }
    int status = 0;
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) return exit_code_of(status);
    if (done < 0 && errno != EINTR) throw std::runtime_error("lost track of a child process");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

int run_tasks(const std::vector<std::string>& command, const std::string& dir, const std::vector<std::size_t>& indexes,
              std::size_t jobs, const std::function<void(std::size_t, int)>& on_finished,
              const std::function<void(std::size_t)>& on_stopped) {
  std::map<pid_t, std::size_t> running;
  std::size_t next = 0;
  while (next < indexes.size() || !running.empty()) {
    if (stop_signal()) break;
    while (running.size() < std::max<std::size_t>(1, jobs) && next < indexes.size()) {
      std::vector<std::string> argv = command;
      argv.insert(argv.end(), {dir, std::to_string(indexes[next])});
      running.emplace(spawn_child(argv, "", ""), indexes[next++]);
    }
    // Polling (50 per second) rather than blocking: a signal arriving just before a
    // blocking wait would leave the tasks running on, unaware of it.
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid == 0 || (pid < 0 && errno == EINTR)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      continue;
    }
    const auto it = running.find(pid);
    if (pid < 0 || it == running.end()) throw std::runtime_error("lost track of a child process");
    const std::size_t index = it->second;
    running.erase(it);
    on_finished(index, exit_code_of(status));
  }
  if (!stop_signal()) return 0;
  // Each task passes the stop on to its own child and records what it must.
  for (const auto& [pid, index] : running) ::kill(pid, SIGTERM);
  for (const auto& [pid, index] : running) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    on_stopped(index);
  }
  return 128 + stop_signal();
}

int exit_code_of(int wait_status) {
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return 255;
}

}  // namespace eipc::cli
