// libFuzzer target: HDF5 trajectory reader. The input is the bytes of a .h5 file;
// the reader opens it, validates the layout and reads every frame.
#include "eipc/io/trajectory_reader.hpp"
#include "scratch_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = eipc::fuzz::write_scratch("input.h5", data, size);
  try {
    eipc::read_trajectory(path);
  } catch (const eipc::InputError&) {
  }
  return 0;
}
