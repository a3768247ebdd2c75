// libFuzzer target: Wavefront OBJ surface reader.
#include "eipc/mesh/read_obj.hpp"
#include "scratch_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = eipc::fuzz::write_scratch("input.obj", data, size);
  try {
    eipc::read_obj(path);
  } catch (const eipc::InputError&) {
  }
  return 0;
}
