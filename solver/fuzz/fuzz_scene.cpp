// libFuzzer target: scene loader. The input is the scene JSON; beside it lie a
// small tetrahedral cube (cube.msh, 2x2x2 cells), a one-tet embedding (emb.msh)
// and a surface (plate.obj), so mutated scenes reach body, embedding and
// prescribed-motion parsing.
#include "eipc/mesh/primitives.hpp"
#include "eipc/mesh/write_mesh.hpp"
#include "eipc/scene/scene.hpp"
#include "scratch_file.hpp"

#include <fstream>

namespace {

void write_assets() {
  const auto& dir = eipc::fuzz::scratch_dir();
  eipc::write_msh((dir / "cube.msh").string(),
                  eipc::box_tet_mesh(eipc::Vec3(0, 0, 0), eipc::Vec3(0.1, 0.1, 0.1), 2, 2, 2));
  eipc::write_msh((dir / "emb.msh").string(),
                  eipc::box_tet_mesh(eipc::Vec3(-0.01, -0.01, -0.01), eipc::Vec3(0.11, 0.11, 0.11), 1, 1, 1));
  std::ofstream(dir / "plate.obj") << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 4\nf 1 4 3\n";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool assets = (write_assets(), true);
  (void)assets;
  const std::string path = eipc::fuzz::write_scratch("scene.json", data, size);
  try {
    eipc::load_scene(path);
  } catch (const eipc::InputError&) {
  }
  return 0;
}
