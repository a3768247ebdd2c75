// libFuzzer target: scene loader (JSON beside a small cube mesh, a one-cell embedding and a surface).
// The body is eipc::fuzz::feed_scene (reader_inputs.hpp); any crash, sanitizer report,
// exception other than InputError, or hang is a bug.
#include "reader_inputs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  eipc::fuzz::feed_scene(data, size);
  return 0;
}
