// The fuzz targets' bodies, one function per reader, shared by the libFuzzer
// executables (fuzz_<reader>.cpp) and the corpus replay unit test
// (tests/unit/fuzz/corpus_replay_test.cpp), which runs every committed corpus file
// through the same code in the ordinary (ASan) test build.
// Each function takes the input bytes; an InputError is a correct answer and is
// swallowed, anything else propagates.
#pragma once

#include "eipc/testing/box_mesh.hpp"
#include "eipc/mesh/read_msh.hpp"
#include "eipc/mesh/read_obj.hpp"
#include "eipc/mesh/read_ply.hpp"
#include "eipc/mesh/read_pvd.hpp"
#include "eipc/mesh/read_stl.hpp"
#include "eipc/mesh/read_tetgen.hpp"
#include "eipc/mesh/read_vtk.hpp"
#include "eipc/mesh/read_vtk_xml.hpp"
#include "eipc/mesh/surface.hpp"
#include "eipc/mesh/validate.hpp"
#include "eipc/mesh/write_mesh.hpp"
#include "eipc/scene/scene.hpp"
#include "scratch_file.hpp"

#include <fstream>
#include <string_view>

namespace eipc::fuzz {

/// What the scene loader does with a tetrahedral mesh after reading it.
inline void check_like_scene_loader(const TetMesh& read, const std::string& path) {
  validate_tet_mesh(read, path);
  const TetMesh m = remove_unused_vertices(read);
  validate_closed_surface(boundary_faces(m.tets), static_cast<int>(m.vertices.rows()), path);
  extract_surface(read);
}

/// Runs f(path) on the input written to scratch_dir()/name; swallows InputError.
template <typename F>
void with_input_file(const char* name, const std::uint8_t* data, std::size_t size, F&& f) {
  const std::string path = write_scratch(name, data, size);
  try {
    f(path);
  } catch (const InputError&) {
  }
}

/// Gmsh .msh (2.x and 4.1), then the scene loader's checks.
inline void feed_msh(const std::uint8_t* data, std::size_t size) {
  with_input_file("input.msh", data, size, [](const std::string& p) { check_like_scene_loader(read_msh(p), p); });
}

/// Legacy VTK: as a frame's surface, then as a tet mesh with the scene loader's checks.
inline void feed_vtk(const std::uint8_t* data, std::size_t size) {
  with_input_file("input.vtk", data, size, [](const std::string& p) { read_vtk_surface(p); });
  with_input_file("input.vtk", data, size, [](const std::string& p) { check_like_scene_loader(read_vtk(p), p); });
}

/// Wavefront OBJ, whole and split into its objects.
inline void feed_obj(const std::uint8_t* data, std::size_t size) {
  with_input_file("input.obj", data, size, [](const std::string& p) { read_obj(p); });
  with_input_file("input.obj", data, size, [](const std::string& p) { read_obj_surfaces(p); });
}

/// Stanford PLY.
inline void feed_ply(const std::uint8_t* data, std::size_t size) {
  with_input_file("input.ply", data, size, [](const std::string& p) { read_ply(p); });
}

/// STL (binary when the size says so, else ASCII).
inline void feed_stl(const std::uint8_t* data, std::size_t size) {
  with_input_file("input.stl", data, size, [](const std::string& p) { read_stl(p); });
}

/// VTK XML (.vtu and .vtp share one reader), and the same bytes as a ParaView .pvd.
inline void feed_vtk_xml(const std::uint8_t* data, std::size_t size) {
  with_input_file("input.vtu", data, size, [](const std::string& p) { read_vtk_xml(p); });
  with_input_file("input.pvd", data, size, [](const std::string& p) { read_pvd(p); });
}

/// TetGen: the .node text, a line "@ele", then the .ele text (no such line: empty .ele).
inline void feed_tetgen(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string_view marker = "\n@ele\n";
  const std::size_t split = text.find(marker);
  const std::string_view node = text.substr(0, split);
  const std::string_view ele = split == std::string_view::npos ? std::string_view() : text.substr(split + marker.size());
  write_scratch("input.ele", ele.data(), ele.size());
  with_input_file("input.node", reinterpret_cast<const std::uint8_t*>(node.data()), node.size(),
                  [](const std::string& p) { check_like_scene_loader(read_tetgen(p), p); });
}

/// Scene JSON beside cube.msh (2x2x2 cells), emb.msh (one cell around it) and plate.obj.
inline void feed_scene(const std::uint8_t* data, std::size_t size) {
  static const bool assets = [] {
    const auto& dir = scratch_dir();
    write_msh((dir / "cube.msh").string(), box_tet_mesh(Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.1), 2, 2, 2));
    write_msh((dir / "emb.msh").string(), box_tet_mesh(Vec3(-0.01, -0.01, -0.01), Vec3(0.11, 0.11, 0.11), 1, 1, 1));
    std::ofstream(dir / "plate.obj") << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 4\nf 1 4 3\n";
    return true;
  }();
  (void)assets;
  with_input_file("scene.json", data, size, [](const std::string& p) { load_scene(p); });
}

}  // namespace eipc::fuzz
