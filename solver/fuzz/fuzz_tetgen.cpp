// libFuzzer target: TetGen .node/.ele reader plus mesh validation. One input holds
// both files: the .node text, a line "@ele", then the .ele text (no such line:
// an empty .ele file).
#include "eipc/mesh/read_tetgen.hpp"
#include "tet_mesh_pipeline.hpp"
#include "scratch_file.hpp"

#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string_view marker = "\n@ele\n";
  const std::size_t split = text.find(marker);
  const std::string_view node = text.substr(0, split);
  const std::string_view ele = split == std::string_view::npos ? std::string_view() : text.substr(split + marker.size());
  eipc::fuzz::write_scratch("input.ele", ele.data(), ele.size());
  const std::string path = eipc::fuzz::write_scratch("input.node", node.data(), node.size());
  try {
    eipc::fuzz::check_like_scene_loader(eipc::read_tetgen(path), path);
  } catch (const eipc::InputError&) {
  }
  return 0;
}
