// Internal: a cursor over the binary part of a file (PLY, STL, VTK), reading
// fixed-size scalars of either byte order; running past the end throws an
// InputError naming the file, the byte offset and what was being read.
#pragma once

#include "eipc/common.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace eipc::mesh_detail {

class ByteReader {
public:
  /// `bytes` start at byte `base` of the file `path` (for messages).
  ByteReader(std::string path, std::string_view bytes, bool big_endian, std::size_t base = 0)
      : path_(std::move(path)), bytes_(bytes), big_endian_(big_endian), base_(base) {}

  template <typename T>
  T read(const char* what) {
    need(sizeof(T), what);
    unsigned char raw[sizeof(T)];
    std::memcpy(raw, bytes_.data() + pos_, sizeof(T));
    if (big_endian_ != host_is_big_endian())
      for (std::size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(raw[i], raw[sizeof(T) - 1 - i]);
    pos_ += sizeof(T);
    T value;
    std::memcpy(&value, raw, sizeof(T));
    return value;
  }
  void skip(std::size_t n, const char* what) {
    need(n, what);
    pos_ += n;
  }
  std::size_t remaining() const { return bytes_.size() - pos_; }
  std::size_t offset() const { return base_ + pos_; }  ///< of the next byte, in the file
  [[noreturn]] void fail(const std::string& problem) const {
    throw InputError(path_ + ": byte " + std::to_string(offset()) + ": " + problem);
  }

private:
  static bool host_is_big_endian() {
    const std::uint16_t one = 1;
    unsigned char first;
    std::memcpy(&first, &one, 1);
    return first == 0;
  }
  void need(std::size_t n, const char* what) const {
    if (n > remaining())
      fail(std::string("unexpected end of file (truncated) while reading ") + what);
  }

  std::string path_;
  std::string_view bytes_;
  bool big_endian_;
  std::size_t base_;
  std::size_t pos_ = 0;
};

}  // namespace eipc::mesh_detail
