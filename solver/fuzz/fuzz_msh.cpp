// libFuzzer target: Gmsh .msh reader (ASCII 2.x and 4.1) plus the validation the
// scene loader runs after it. Any InputError is a correct answer; anything else
// (crash, sanitizer report, other exception, hang) is a bug.
#include "eipc/mesh/read_msh.hpp"
#include "tet_mesh_pipeline.hpp"
#include "scratch_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = eipc::fuzz::write_scratch("input.msh", data, size);
  try {
    eipc::fuzz::check_like_scene_loader(eipc::read_msh(path), path);
  } catch (const eipc::InputError&) {
  }
  return 0;
}
