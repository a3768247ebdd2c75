// Fuzz-target helper: the readers take paths, so each input is written to a
// file in a per-process scratch directory (removed at exit) and read from there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace eipc::fuzz {

/// A per-process directory under the system temp dir, removed when the process exits.
inline const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path dir = [] {
    std::filesystem::path d = std::filesystem::temp_directory_path() / ("eipc_fuzz_" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    static const std::string keep = d.string();
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(keep, ec);
    });
    return d;
  }();
  return dir;
}

/// Writes `size` bytes to scratch_dir()/name and returns the full path.
inline std::string write_scratch(const std::string& name, const void* data, std::size_t size) {
  const std::filesystem::path p = scratch_dir() / name;
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  return p.string();
}

}  // namespace eipc::fuzz
