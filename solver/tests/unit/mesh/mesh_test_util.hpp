// Shared helpers for the mesh unit tests.
#pragma once

#include <filesystem>
#include <string>
#include <unistd.h>

namespace eipc::test {

inline std::string mesh_data(const std::string& name) { return std::string(EIPC_TEST_DATA) + "/mesh/" + name; }
inline std::string asset(const std::string& name) { return std::string(EIPC_ASSETS) + "/" + name; }

/// A fresh scratch directory for files written by a test.
inline std::string scratch_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("eipc_mesh_" + std::to_string(::getpid()) + "_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

}  // namespace eipc::test
