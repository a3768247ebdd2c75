// Shared by the CLI tests: run the eipc binary, and a scratch directory with a
// two-cube scene.
#pragma once

#include "eipc/testing/box_mesh.hpp"
#include "eipc/mesh/write_mesh.hpp"

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace eipc::test {

namespace fs = std::filesystem;

struct Result {
  int code;
  std::string output;  // stdout and stderr
};

inline Result run_eipc(const std::string& args) {
  const std::string cmd = std::string(EIPC_BINARY) + " " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe);
  std::string out;
  char buf[4096];
  while (std::size_t n = fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

/// A scratch directory with a cube mesh and a scene writer.
struct Workspace {
  fs::path dir;
  Workspace() {
    dir = fs::temp_directory_path() / ("eipc_cli_" + std::to_string(::getpid()) + "_" + std::to_string(counter()++));
    fs::create_directories(dir);
    write_msh((dir / "cube.msh").string(), box_tet_mesh(Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.1), 2, 2, 2));
  }
  ~Workspace() { fs::remove_all(dir); }
  static int& counter() {
    static int c = 0;
    return c;
  }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  }
  /// A valid two-cube scene with `body_extra` spliced into the first body and `root_extra` into the root.
  std::string scene(const std::string& body_extra = "", const std::string& root_extra = "",
                    const std::string& second_translation = "[0.2, 0, 0.01]") const {
    return write("scene.json", R"({"format": "eipc-scene", "version": 1, "name": "cli", "duration": 0.02, "dt": 0.01,
      "ground": {"height": 0.0}, )" + root_extra + R"(
      "bodies": [
        {"name": "a", "mesh": "cube.msh", "transform": {"translation": [0, 0, 0.01]},
         "material": {"model": "linear_corotated", "youngs": 1e5, "poisson": 0.3, "density": 1000})" +
                                     body_extra + R"(},
        {"name": "b", "mesh": "cube.msh", "transform": {"translation": )" + second_translation + R"(},
         "material": {"model": "neo_hookean", "youngs": 1e5, "poisson": 0.3, "density": 1000}}]})");
  }
};

}  // namespace eipc::test
