// Thin RAII layer over the HDF5 C API, private to eipc_io (keeps HDF5 out of the
// public headers). Every failing call throws h5::Error carrying the caller's context
// and HDF5's own innermost error message; HDF5's automatic error printing is off.
#pragma once

#include <hdf5.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace eipc::h5 {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Turns off HDF5's printing of error stacks to stderr (we report them ourselves).
void silence_library_errors();

/// Owns one HDF5 identifier (file, group, dataset, dataspace, datatype, attribute or
/// property list) and closes it with the matching H5?close.
class Handle {
public:
  Handle() = default;
  explicit Handle(hid_t id) : id_(id) {}
  ~Handle() { reset(); }
  Handle(Handle&& o) noexcept : id_(o.id_) { o.id_ = H5I_INVALID_HID; }
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) { reset(); id_ = o.id_; o.id_ = H5I_INVALID_HID; }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;

  hid_t get() const { return id_; }
  operator hid_t() const { return id_; }  // NOLINT: handles pass straight to the C API
  bool valid() const { return id_ >= 0; }
  /// Closes now; returns false if HDF5 reported an error while closing.
  bool close();
  void reset() { close(); }

private:
  hid_t id_ = H5I_INVALID_HID;
};

/// HDF5's innermost error description on this thread (then clears the stack).
std::string library_message();
/// Throws Error("<what>: <HDF5 message>") if id < 0, else wraps it.
Handle check(hid_t id, const std::string& what);
/// Throws Error("<what>: <HDF5 message>") if status < 0.
void check(herr_t status, const std::string& what);

// --- objects ---------------------------------------------------------------------
bool link_exists(hid_t loc, const std::string& path);  ///< every component of path exists
bool attribute_exists(hid_t obj, const std::string& name);
Handle create_group(hid_t loc, const std::string& name);
Handle open_group(hid_t loc, const std::string& name);
Handle open_dataset(hid_t loc, const std::string& name);

// --- attributes (strings are variable-length UTF-8, as h5py writes them) ------------
void write_string_attribute(hid_t obj, const std::string& name, const std::string& value);
void write_string_list_attribute(hid_t obj, const std::string& name,
                                 const std::vector<std::string>& values);
void write_double_attribute(hid_t obj, const std::string& name, double value);
/// file_type e.g. H5T_STD_I32LE or H5T_STD_I8LE.
void write_int_attribute(hid_t obj, const std::string& name, long long value, hid_t file_type);
std::string read_string_attribute(hid_t obj, const std::string& name);  ///< variable or fixed length
std::vector<std::string> read_string_list_attribute(hid_t obj, const std::string& name);
double read_double_attribute(hid_t obj, const std::string& name);
long long read_int_attribute(hid_t obj, const std::string& name);

// --- datasets ------------------------------------------------------------------------
std::vector<hsize_t> dataset_shape(hid_t dataset);
/// Fixed-size dataset written whole from `data` (row-major, mem_type elements).
void write_dataset(hid_t loc, const std::string& name, hid_t file_type, hid_t mem_type,
                   const std::vector<hsize_t>& dims, const void* data);
/// Chunked dataset whose dimensions marked in `growing` are unlimited; fill value 0.
Handle create_growing_dataset(hid_t loc, const std::string& name, hid_t file_type,
                              const std::vector<hsize_t>& dims, const std::vector<bool>& growing,
                              const std::vector<hsize_t>& chunk);
void resize(hid_t dataset, const std::vector<hsize_t>& dims);
/// Writes/reads the block [start, start + count) (row-major, mem_type elements).
void write_block(hid_t dataset, hid_t mem_type, const std::vector<hsize_t>& start,
                 const std::vector<hsize_t>& count, const void* data);
void read_block(hid_t dataset, hid_t mem_type, const std::vector<hsize_t>& start,
                const std::vector<hsize_t>& count, void* data);
/// Reads the whole dataset; `data` must hold product(dataset_shape) elements.
void read_dataset(hid_t dataset, hid_t mem_type, void* data);

}  // namespace eipc::h5
