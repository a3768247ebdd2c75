// Replays every committed fuzz corpus file (solver/fuzz/corpus/<target>/) through the
// fuzz target's own body, so the ordinary test builds -- including the ASan/UBSan one
// in CI -- re-check every input the fuzzers kept, without clang or libFuzzer.
// A reader may accept an input or throw InputError; anything else fails here.
// (fuzz_trajectory overlays a base HDF5 file and needs the HDF5 API: ci/fuzz only.)
#include "reader_inputs.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace fs = std::filesystem;

namespace {

/// Feeds every file of corpus/<target> to feed(); returns how many there were.
template <typename Feed>
int replay(const std::string& target, Feed feed) {
  int files = 0;
  std::vector<fs::path> paths;
  for (const auto& entry : fs::directory_iterator(fs::path(EIPC_FUZZ_CORPUS) / target)) paths.push_back(entry.path());
  std::sort(paths.begin(), paths.end());
  for (const fs::path& p : paths) {
    std::ifstream in(p, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), {}};
    INFO(target << " input " << p.filename().string());
    CHECK_NOTHROW(feed(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
    ++files;
  }
  return files;
}

}  // namespace

TEST_CASE("every fuzz corpus input of the .msh reader is read or refused with InputError", "[fuzz][mesh]") {
  CHECK(replay("fuzz_msh", eipc::fuzz::feed_msh) >= 4);
}

TEST_CASE("every fuzz corpus input of the VTK reader is read or refused with InputError", "[fuzz][mesh]") {
  CHECK(replay("fuzz_vtk", eipc::fuzz::feed_vtk) >= 2);
}

TEST_CASE("every fuzz corpus input of the OBJ reader is read or refused with InputError", "[fuzz][mesh]") {
  CHECK(replay("fuzz_obj", eipc::fuzz::feed_obj) >= 2);
}

TEST_CASE("every fuzz corpus input of the TetGen reader is read or refused with InputError", "[fuzz][mesh]") {
  CHECK(replay("fuzz_tetgen", eipc::fuzz::feed_tetgen) >= 2);
}

TEST_CASE("every fuzz corpus input of the scene loader is loaded or refused with InputError", "[fuzz][scene]") {
  CHECK(replay("fuzz_scene", eipc::fuzz::feed_scene) >= 3);
}

TEST_CASE("every fuzz corpus input of the PLY reader is read or refused with InputError", "[fuzz][mesh]") {
  CHECK(replay("fuzz_ply", eipc::fuzz::feed_ply) >= 3);
}

TEST_CASE("every fuzz corpus input of the STL reader is read or refused with InputError", "[fuzz][mesh]") {
  CHECK(replay("fuzz_stl", eipc::fuzz::feed_stl) >= 2);
}

TEST_CASE("every fuzz corpus input of the VTK XML and .pvd readers is read or refused with InputError",
          "[fuzz][mesh]") {
  CHECK(replay("fuzz_vtk_xml", eipc::fuzz::feed_vtk_xml) >= 6);
}
