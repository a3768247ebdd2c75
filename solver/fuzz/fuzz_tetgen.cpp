// libFuzzer target: TetGen .node/.ele reader (one input: .node text, a line "@ele", .ele text).
// The body is eipc::fuzz::feed_tetgen (reader_inputs.hpp); any crash, sanitizer report,
// exception other than InputError, or hang is a bug.
#include "reader_inputs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  eipc::fuzz::feed_tetgen(data, size);
  return 0;
}
