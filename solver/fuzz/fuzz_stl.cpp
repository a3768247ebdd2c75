// libFuzzer target: the STL frame reader.
// The body is eipc::fuzz::feed_stl (reader_inputs.hpp); any crash, sanitizer report,
// exception other than InputError, or hang is a bug.
#include "reader_inputs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  eipc::fuzz::feed_stl(data, size);
  return 0;
}
