// libFuzzer target: Gmsh .msh reader (ASCII 2.x and 4.1) and the scene loader's mesh checks.
// The body is eipc::fuzz::feed_msh (reader_inputs.hpp); any crash, sanitizer report,
// exception other than InputError, or hang is a bug.
#include "reader_inputs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  eipc::fuzz::feed_msh(data, size);
  return 0;
}
