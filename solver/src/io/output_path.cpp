#include "eipc/io/output_path.hpp"

#include "eipc/common.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <unistd.h>

namespace eipc {

namespace fs = std::filesystem;

namespace {

std::string where(const std::string& option, const std::string& path) {
  return option.empty() ? path : option + " " + path;
}

}  // namespace

void prepare_output_file(const std::string& path, const std::string& option) {
  if (path.empty()) throw InputError(where(option, "''") + ": empty file name");
  if (path.back() == '/' || fs::is_directory(path))
    throw InputError(where(option, path) + ": names a directory; give the name of a file (in it or elsewhere)");
  const fs::path parent = fs::path(path).parent_path();
  prepare_output_directory(parent.empty() ? "." : parent.string(), option);
}

void prepare_output_directory(const std::string& dir, const std::string& option) {
  if (dir.empty()) throw InputError(where(option, "''") + ": empty directory name");
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw InputError(where(option, dir) + ": cannot create the directory: " +
                     (ec ? ec.message() : "a file of that name exists"));
  // Permissions alone do not tell (root, read-only mounts, ACLs): make a file.
  const std::string probe = (fs::path(dir) / ".eipc-write-probe").string();
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw InputError(where(option, dir) + ": cannot write into it: " + std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

}  // namespace eipc
