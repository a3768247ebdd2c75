// libFuzzer target: HDF5 trajectory reader, fed files whose HDF5 structure is valid
// and whose stored values are fuzzed. The input overwrites the raw data of every
// dataset of a real trajectory (data/trajectory_base.h5, contiguous layout) in file
// order: rest vertices, tets, surfaces, embedding weights and indices, positions,
// frame statistics, contact pairs and forces. The reader must turn every bad value
// (index out of range, NaN, wrong counts) into an InputError or read it as data.
//
// Why not raw bytes everywhere: unconstrained byte mutation of the file first finds
// bugs inside HDF5 1.10.8 itself -- a hang decoding a global heap collection, a heap
// over-read decoding an attribute message, a leak in H5Fopen -- which no check on our
// side of the HDF5 API can prevent (inputs in hdf5_findings/, docs/robustness.md).
// The metadata (object headers, attributes, heaps) therefore stays as written.
#include "eipc/io/trajectory_reader.hpp"
#include "scratch_file.hpp"

#include <hdf5.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

namespace {

struct Range {
  haddr_t offset;
  hsize_t size;
};

struct Base {
  std::string bytes;
  std::vector<Range> data;  // raw data of every contiguous dataset, ascending offset
};

herr_t collect_dataset(hid_t group, const char* name, const H5L_info_t*, void* out) {
  const hid_t ds = H5Dopen2(group, name, H5P_DEFAULT);
  if (ds < 0) return 0;  // a group
  const haddr_t offset = H5Dget_offset(ds);
  const hsize_t size = H5Dget_storage_size(ds);
  if (offset != HADDR_UNDEF && size > 0) static_cast<std::vector<Range>*>(out)->push_back({offset, size});
  H5Dclose(ds);
  return 0;
}

Base load_base() {
  Base b;
  std::ifstream in(EIPC_FUZZ_TRAJECTORY_BASE, std::ios::binary);
  b.bytes.assign(std::istreambuf_iterator<char>(in), {});
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const hid_t file = H5Fopen(EIPC_FUZZ_TRAJECTORY_BASE, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0 || b.bytes.empty()) throw std::runtime_error("cannot read " EIPC_FUZZ_TRAJECTORY_BASE);
  H5Lvisit(file, H5_INDEX_NAME, H5_ITER_INC, collect_dataset, &b.data);
  H5Fclose(file);
  std::sort(b.data.begin(), b.data.end(), [](const Range& x, const Range& y) { return x.offset < y.offset; });
  if (b.data.empty()) throw std::runtime_error("no contiguous datasets in " EIPC_FUZZ_TRAJECTORY_BASE);
  return b;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Base base = load_base();
  std::string file = base.bytes;
  std::size_t used = 0;
  for (const Range& r : base.data)
    for (hsize_t k = 0; k < r.size && used < size; ++k) file[r.offset + k] = static_cast<char>(data[used++]);
  const std::string path = eipc::fuzz::write_scratch("input.h5", file.data(), file.size());
  try {
    eipc::read_trajectory(path);
  } catch (const eipc::InputError&) {
  }
  return 0;
}
