// libFuzzer target: HDF5 trajectory reader. The input is the bytes of a .h5 file;
// the reader opens it, validates the layout and reads every frame. Inputs that hit
// a known bug inside HDF5 itself are skipped (hdf5_global_heap_guard.hpp).
#include "eipc/io/trajectory_reader.hpp"
#include "hdf5_global_heap_guard.hpp"
#include "scratch_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (eipc::fuzz::has_hdf5_breaking_global_heap(data, size)) return -1;  // not added to the corpus
  const std::string path = eipc::fuzz::write_scratch("input.h5", data, size);
  try {
    eipc::read_trajectory(path);
  } catch (const eipc::InputError&) {
  }
  return 0;
}
