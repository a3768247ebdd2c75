// Fuzz-target constraint for fuzz_trajectory: skips inputs holding a global heap
// collection that HDF5 1.10.8 (Debian 12) itself cannot survive.
//
// HDF5's global-heap decoder (H5HG__cache_heap_deserialize, reached through H5Aread
// of a variable-length string attribute) walks the objects of a collection with
// `image = begin + need`, where need is the free-space object's stored size, or
// 16 + align8(size) for other objects, without checking it. A stored free-space
// size of 0 makes the walk loop forever (found by this fuzzer: a hang inside
// libhdf5); a size running past the collection makes later reads copy from
// outside the chunk. Both are bugs in HDF5, not in our reader, and no check on
// our side of the API can catch them, so the target does not feed such files to
// HDF5 (docs/robustness.md). Everything else in the file is still fuzzed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace eipc::fuzz {

namespace detail {
inline std::uint64_t little_endian(const std::uint8_t* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
}  // namespace detail

/// True when some "GCOL" collection header in data (version 1, 8-byte lengths as our
/// files use) has an object walk that would not advance or would leave the collection
/// or the input, i.e. one of the HDF5 failure cases above.
inline bool has_hdf5_breaking_global_heap(const std::uint8_t* data, std::size_t size) {
  constexpr std::size_t header = 16, object_header = 16, min_collection = 4096;
  for (std::size_t at = 0; at + header <= size; ++at) {
    if (std::memcmp(data + at, "GCOL", 4) != 0) continue;
    const std::uint64_t length = detail::little_endian(data + at + 8, 8);
    if (length < min_collection) continue;  // HDF5 rejects it with an error: fine to fuzz
    if (length > size - at) return true;    // the walk would read past the input
    std::uint64_t p = header;
    while (p < length) {
      if (p + object_header > length) break;  // trailing free space, handled by HDF5
      const std::uint8_t* object = data + at + p;
      const std::uint64_t index = detail::little_endian(object, 2);
      const std::uint64_t stored = detail::little_endian(object + 8, 8);
      const std::uint64_t need = index > 0 ? object_header + ((stored + 7) & ~std::uint64_t{7}) : stored;
      if (need == 0 || need > length - p || (index > 0 && stored > length)) return true;
      p += need;
    }
  }
  return false;
}

}  // namespace eipc::fuzz
