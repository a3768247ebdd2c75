// libFuzzer target: legacy ASCII VTK unstructured-grid reader plus mesh validation.
#include "eipc/mesh/read_vtk.hpp"
#include "tet_mesh_pipeline.hpp"
#include "scratch_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = eipc::fuzz::write_scratch("input.vtk", data, size);
  try {
    eipc::fuzz::check_like_scene_loader(eipc::read_vtk(path), path);
  } catch (const eipc::InputError&) {
  }
  return 0;
}
