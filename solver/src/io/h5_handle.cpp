// Thin RAII layer over the HDF5 C API (see h5_handle.hpp).
#include "h5_handle.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

namespace eipc::h5 {

void silence_library_errors() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

bool Handle::close() {
  if (id_ < 0) return true;
  herr_t status = -1;
  switch (H5Iget_type(id_)) {
    case H5I_FILE: status = H5Fclose(id_); break;
    case H5I_GROUP: status = H5Gclose(id_); break;
    case H5I_DATASET: status = H5Dclose(id_); break;
    case H5I_DATASPACE: status = H5Sclose(id_); break;
    case H5I_DATATYPE: status = H5Tclose(id_); break;
    case H5I_ATTR: status = H5Aclose(id_); break;
    case H5I_GENPROP_LST: status = H5Pclose(id_); break;
    default: status = H5Idec_ref(id_) < 0 ? -1 : 0; break;
  }
  id_ = H5I_INVALID_HID;
  return status >= 0;
}

namespace {

herr_t collect_message(unsigned /*n*/, const H5E_error2_t* err, void* out) {
  if (err->desc && *err->desc) *static_cast<std::string*>(out) = err->desc;
  return 0;
}

// Object creation property list that leaves out modification times, so the same
// trajectory written twice gives the same bytes.
Handle untimed(hid_t plist_class) {
  Handle plist = check(H5Pcreate(plist_class), "creating a property list");
  check(H5Pset_obj_track_times(plist, 0), "disabling object time tracking");
  return plist;
}

// Chunked dataset layout with a Fletcher-32 checksum per chunk, so a corrupted chunk
// fails to read instead of returning wrong numbers.
Handle checksummed(const std::vector<hsize_t>& chunk, const std::string& what) {
  Handle dcpl = untimed(H5P_DATASET_CREATE);
  check(H5Pset_chunk(dcpl, static_cast<int>(chunk.size()), chunk.data()), what);
  check(H5Pset_fletcher32(dcpl), what);
  return dcpl;
}

Handle string_type() {
  Handle type = check(H5Tcopy(H5T_C_S1), "creating a string type");
  check(H5Tset_size(type, H5T_VARIABLE), "creating a string type");
  check(H5Tset_cset(type, H5T_CSET_UTF8), "creating a string type");
  return type;
}

Handle open_attribute(hid_t obj, const std::string& name) {
  if (!attribute_exists(obj, name)) throw Error("attribute '" + name + "' is missing");
  return check(H5Aopen(obj, name.c_str(), H5P_DEFAULT), "opening attribute '" + name + "'");
}

hssize_t attribute_points(hid_t attr, const std::string& name) {
  Handle space = check(H5Aget_space(attr), "attribute '" + name + "'");
  hssize_t n = H5Sget_simple_extent_npoints(space);
  if (n < 0) throw Error("attribute '" + name + "': unreadable dataspace");
  return n;
}

void write_attribute(hid_t obj, const std::string& name, hid_t file_type, hid_t mem_type,
                     hsize_t count, bool scalar, const void* data) {
  std::string what = "writing attribute '" + name + "'";
  if (attribute_exists(obj, name)) check(H5Adelete(obj, name.c_str()), what);
  Handle space = scalar ? check(H5Screate(H5S_SCALAR), what)
                        : check(H5Screate_simple(1, &count, nullptr), what);
  Handle attr = check(H5Acreate2(obj, name.c_str(), file_type, space, H5P_DEFAULT, H5P_DEFAULT), what);
  check(H5Awrite(attr, mem_type, data), what);
}

template <typename T>
T read_scalar_attribute(hid_t obj, const std::string& name, hid_t mem_type) {
  Handle attr = open_attribute(obj, name);
  if (attribute_points(attr, name) != 1)
    throw Error("attribute '" + name + "' must hold exactly one value");
  T value{};
  check(H5Aread(attr, mem_type, &value), "reading attribute '" + name + "'");
  return value;
}

std::vector<std::string> read_strings(hid_t obj, const std::string& name) {
  Handle attr = open_attribute(obj, name);
  std::string what = "reading attribute '" + name + "'";
  Handle file_type = check(H5Aget_type(attr), what);
  if (H5Tget_class(file_type) != H5T_STRING) throw Error("attribute '" + name + "' is not a string");
  auto n = static_cast<std::size_t>(attribute_points(attr, name));
  std::vector<std::string> out;
  if (n == 0) return out;
  htri_t variable = H5Tis_variable_str(file_type);
  if (variable < 0) throw Error(what + ": " + library_message());
  if (variable) {
    Handle mem = string_type();
    std::vector<char*> raw(n, nullptr);
    check(H5Aread(attr, mem, raw.data()), what);
    for (char* s : raw) out.emplace_back(s ? s : "");
    Handle space = check(H5Aget_space(attr), what);
    H5Dvlen_reclaim(mem, space, H5P_DEFAULT, raw.data());
  } else {
    std::size_t size = H5Tget_size(file_type);
    if (size == 0) throw Error(what + ": zero-size string type");
    Handle mem = check(H5Tcopy(H5T_C_S1), what);
    check(H5Tset_size(mem, size), what);
    std::vector<char> raw(n * size, '\0');
    check(H5Aread(attr, mem, raw.data()), what);
    for (std::size_t i = 0; i < n; ++i) {
      const char* s = raw.data() + i * size;
      out.emplace_back(s, strnlen(s, size));
    }
  }
  return out;
}

Handle block_space(hid_t dataset, const std::vector<hsize_t>& start,
                   const std::vector<hsize_t>& count, const std::string& what) {
  Handle space = check(H5Dget_space(dataset), what);
  if (H5Sget_simple_extent_ndims(space) != static_cast<int>(start.size()))
    throw Error(what + ": rank mismatch");
  check(H5Sselect_hyperslab(space, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr), what);
  return space;
}

hsize_t product(const std::vector<hsize_t>& dims) {
  hsize_t n = 1;
  for (hsize_t d : dims) n *= d;
  return n;
}

}  // namespace

std::string library_message() {
  std::string msg;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, collect_message, &msg);
  H5Eclear2(H5E_DEFAULT);
  return msg.empty() ? "HDF5 error" : msg;
}

Handle check(hid_t id, const std::string& what) {
  if (id < 0) throw Error(what + ": " + library_message());
  return Handle(id);
}

void check(herr_t status, const std::string& what) {
  if (status < 0) throw Error(what + ": " + library_message());
}

bool link_exists(hid_t loc, const std::string& path) {
  // H5Lexists fails (rather than answering no) if an intermediate group is missing.
  std::string prefix;
  std::size_t pos = 0;
  while (pos <= path.size()) {
    std::size_t next = path.find('/', pos);
    if (next == std::string::npos) next = path.size();
    std::string part = path.substr(pos, next - pos);
    if (!part.empty()) {
      prefix += (prefix.empty() && path[0] != '/') ? part : "/" + part;
      htri_t e = H5Lexists(loc, prefix.c_str(), H5P_DEFAULT);
      if (e <= 0) { H5Eclear2(H5E_DEFAULT); return false; }
    }
    pos = next + 1;
  }
  return true;
}

bool attribute_exists(hid_t obj, const std::string& name) {
  htri_t e = H5Aexists(obj, name.c_str());
  if (e < 0) H5Eclear2(H5E_DEFAULT);
  return e > 0;
}

Handle create_group(hid_t loc, const std::string& name) {
  Handle gcpl = untimed(H5P_GROUP_CREATE);
  return check(H5Gcreate2(loc, name.c_str(), H5P_DEFAULT, gcpl, H5P_DEFAULT), "creating group " + name);
}

Handle open_group(hid_t loc, const std::string& name) {
  if (!link_exists(loc, name)) throw Error("group " + name + " is missing");
  return check(H5Gopen2(loc, name.c_str(), H5P_DEFAULT), "opening group " + name);
}

Handle open_dataset(hid_t loc, const std::string& name) {
  if (!link_exists(loc, name)) throw Error("dataset " + name + " is missing");
  Handle ds = check(H5Dopen2(loc, name.c_str(), H5P_DEFAULT), "opening dataset " + name);
  return ds;
}

void write_string_attribute(hid_t obj, const std::string& name, const std::string& value) {
  Handle type = string_type();
  const char* p = value.c_str();
  write_attribute(obj, name, type, type, 1, true, &p);
}

void write_string_list_attribute(hid_t obj, const std::string& name,
                                 const std::vector<std::string>& values) {
  Handle type = string_type();
  std::vector<const char*> ptrs;
  for (const auto& v : values) ptrs.push_back(v.c_str());
  const char* none = "";
  write_attribute(obj, name, type, type, values.size(), false, ptrs.empty() ? &none : ptrs.data());
}

void write_double_attribute(hid_t obj, const std::string& name, double value) {
  write_attribute(obj, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, true, &value);
}

void write_int_attribute(hid_t obj, const std::string& name, long long value, hid_t file_type) {
  write_attribute(obj, name, file_type, H5T_NATIVE_LLONG, 1, true, &value);
}

std::string read_string_attribute(hid_t obj, const std::string& name) {
  auto values = read_strings(obj, name);
  if (values.size() != 1) throw Error("attribute '" + name + "' must hold exactly one string");
  return values.front();
}

std::vector<std::string> read_string_list_attribute(hid_t obj, const std::string& name) {
  return read_strings(obj, name);
}

double read_double_attribute(hid_t obj, const std::string& name) {
  return read_scalar_attribute<double>(obj, name, H5T_NATIVE_DOUBLE);
}

long long read_int_attribute(hid_t obj, const std::string& name) {
  Handle attr = open_attribute(obj, name);
  Handle type = check(H5Aget_type(attr), "attribute '" + name + "'");
  if (H5Tget_class(type) != H5T_INTEGER) throw Error("attribute '" + name + "' is not an integer");
  return read_scalar_attribute<long long>(obj, name, H5T_NATIVE_LLONG);
}

std::vector<hsize_t> dataset_shape(hid_t dataset) {
  Handle space = check(H5Dget_space(dataset), "reading a dataset's shape");
  int rank = H5Sget_simple_extent_ndims(space);
  if (rank < 0) throw Error("reading a dataset's shape: " + library_message());
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  if (rank > 0) check(H5Sget_simple_extent_dims(space, dims.data(), nullptr), "reading a dataset's shape");
  return dims;
}

void write_dataset(hid_t loc, const std::string& name, hid_t file_type, hid_t mem_type,
                   const std::vector<hsize_t>& dims, const void* data) {
  std::string what = "writing dataset " + name;
  Handle space = check(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), what);
  // Chunked (at most 65536 rows a chunk) only so that the checksum filter applies.
  std::vector<hsize_t> chunk = dims;
  for (hsize_t& c : chunk) c = std::max<hsize_t>(c, 1);
  chunk[0] = std::min<hsize_t>(chunk[0], 65536);
  Handle dcpl = checksummed(chunk, what);
  Handle ds = check(H5Dcreate2(loc, name.c_str(), file_type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT), what);
  if (product(dims) > 0) check(H5Dwrite(ds, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), what);
}

Handle create_growing_dataset(hid_t loc, const std::string& name, hid_t file_type,
                              const std::vector<hsize_t>& dims, const std::vector<bool>& growing,
                              const std::vector<hsize_t>& chunk) {
  std::string what = "creating dataset " + name;
  std::vector<hsize_t> maxdims = dims;
  for (std::size_t i = 0; i < dims.size(); ++i)
    if (growing[i]) maxdims[i] = H5S_UNLIMITED;
  Handle space = check(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), maxdims.data()), what);
  Handle dcpl = checksummed(chunk, what);
  // Fill value 0 (HDF5's default, made explicit): grown regions read as zeros.
  const unsigned char zeros[16] = {};
  check(H5Pset_fill_value(dcpl, file_type, zeros), what);
  return check(H5Dcreate2(loc, name.c_str(), file_type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT), what);
}

void resize(hid_t dataset, const std::vector<hsize_t>& dims) {
  check(H5Dset_extent(dataset, dims.data()), "resizing a dataset");
}

void write_block(hid_t dataset, hid_t mem_type, const std::vector<hsize_t>& start,
                 const std::vector<hsize_t>& count, const void* data) {
  if (product(count) == 0) return;
  std::string what = "writing a dataset block";
  Handle file_space = block_space(dataset, start, count, what);
  Handle mem_space = check(H5Screate_simple(static_cast<int>(count.size()), count.data(), nullptr), what);
  check(H5Dwrite(dataset, mem_type, mem_space, file_space, H5P_DEFAULT, data), what);
}

void read_block(hid_t dataset, hid_t mem_type, const std::vector<hsize_t>& start,
                const std::vector<hsize_t>& count, void* data) {
  if (product(count) == 0) return;
  std::string what = "reading a dataset block";
  Handle file_space = block_space(dataset, start, count, what);
  Handle mem_space = check(H5Screate_simple(static_cast<int>(count.size()), count.data(), nullptr), what);
  check(H5Dread(dataset, mem_type, mem_space, file_space, H5P_DEFAULT, data), what);
}

void read_dataset(hid_t dataset, hid_t mem_type, void* data) {
  if (product(dataset_shape(dataset)) == 0) return;
  check(H5Dread(dataset, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), "reading a dataset");
}

}  // namespace eipc::h5
