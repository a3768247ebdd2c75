// FNV-1a, 64 bit: a fingerprint of a file's bytes, to notice that an input changed
// (a scene between two sweeps, a surface under its cached tets). Not cryptographic.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace eipc {

inline std::string fnv1a_hex(std::string_view bytes) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

}  // namespace eipc
