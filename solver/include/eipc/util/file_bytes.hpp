// A whole file's bytes, for parsing or fingerprinting it (util/fnv1a.hpp).
#pragma once

#include "eipc/common.hpp"

#include <fstream>
#include <iterator>
#include <string>

namespace eipc {

/// The bytes of the file at `path`; InputError "<path>: cannot open <what>" if it cannot be read.
inline std::string read_file_bytes(const std::string& path, const std::string& what = "") {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open" + (what.empty() ? "" : " " + what));
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace eipc
