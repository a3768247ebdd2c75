// A scratch directory with cube.msh (one box cell, 6 tets) beside a scene file, for
// the scene loader's tests: write a scene, load it, get its InputError message.
#pragma once

#include "eipc/mesh/write_mesh.hpp"
#include "eipc/scene/scene.hpp"
#include "eipc/testing/box_mesh.hpp"

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace eipc::test {

struct SceneDir {
  std::filesystem::path dir;
  explicit SceneDir(const std::string& tag)
      : dir(std::filesystem::temp_directory_path() / ("eipc_" + tag + "_" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(dir);
    write_msh((dir / "cube.msh").string(), box_tet_mesh(Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.1), 1, 1, 1));
  }
  ~SceneDir() { std::filesystem::remove_all(dir); }
  /// Writes `text` as dir/scene.json and returns its path.
  std::string write(const std::string& text) const {
    const std::string path = (dir / "scene.json").string();
    std::ofstream(path) << text;
    return path;
  }
  /// Loads `text` as a scene; returns the InputError message ("" if it loaded).
  std::string error_of(const std::string& text, const SceneOverrides& overrides = {}) const {
    try {
      load_scene(write(text), overrides);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  }
};

}  // namespace eipc::test
