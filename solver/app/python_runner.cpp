#include "python_runner.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace eipc::cli {

namespace fs = std::filesystem;

int run_program(const std::vector<std::string>& argv, bool quiet) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (quiet) {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  }
  pid_t pid = 0;
  const int err = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) return 127;  // as a shell reports a program it cannot start
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waitpid failed for " + argv[0]);
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

std::optional<std::string> find_python(const std::vector<std::string>& modules, std::vector<std::string>& tried) {
  std::vector<std::string> candidates;
  if (const char* forced = std::getenv("EIPC_PYTHON"); forced && *forced) candidates.push_back(forced);
  candidates.push_back("/usr/bin/python3");
  if (const char* path = std::getenv("PATH")) {
    std::string dirs = path;
    for (std::size_t start = 0; start <= dirs.size();) {
      const std::size_t end = std::min(dirs.find(':', start), dirs.size());
      if (end > start) candidates.push_back((fs::path(dirs.substr(start, end - start)) / "python3").string());
      start = end + 1;
    }
  }
  std::string imports = "import ";
  for (std::size_t i = 0; i < modules.size(); ++i) imports += (i ? ", " : "") + modules[i];
  for (const std::string& python : candidates) {
    if (!fs::exists(python) || std::find(tried.begin(), tried.end(), python) != tried.end()) continue;
    tried.push_back(python);
    if (run_program({python, "-c", imports}, true) == 0) return python;
  }
  return std::nullopt;
}

std::optional<std::string> find_analysis_script(const std::string& name) {
  std::vector<fs::path> places;
#ifdef EIPC_ANALYSIS_DIR
  places.push_back(fs::path(EIPC_ANALYSIS_DIR) / name);
#endif
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    places.push_back(exe.parent_path() / "analysis" / name);
    places.push_back(exe.parent_path() / ".." / "share" / "eipc" / "analysis" / name);
  }
  for (const fs::path& p : places) {
    if (fs::is_regular_file(p)) return p.lexically_normal().string();
  }
  return std::nullopt;
}

}  // namespace eipc::cli
