#include "engine_attributes.hpp"

#include <hdf5.h>

#include <stdexcept>

namespace eipc::peers {
namespace {

void write_string(hid_t file, const char* name, const std::string& value) {
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t attr = H5Acreate2(file, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  const char* data = value.c_str();
  const herr_t status = attr < 0 ? -1 : H5Awrite(attr, type, &data);
  if (attr >= 0) H5Aclose(attr);
  H5Sclose(space);
  H5Tclose(type);
  if (status < 0) throw std::runtime_error(std::string("cannot write trajectory attribute ") + name);
}

}  // namespace

void write_engine_attributes(const std::string& partial_path, const std::string& engine, const std::string& version,
                             const std::string& engine_json) {
  // The writer still holds the file open: HDF5 shares one open file between both handles.
  const hid_t file = H5Fopen(partial_path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  if (file < 0) throw std::runtime_error("cannot open " + partial_path + " to write the engine attributes");
  try {
    write_string(file, engine_attribute, engine);
    write_string(file, engine_version_attribute, version);
    write_string(file, engine_json_attribute, engine_json);
  } catch (...) {
    H5Fclose(file);
    throw;
  }
  H5Fclose(file);
}

}  // namespace eipc::peers
