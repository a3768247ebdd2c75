// The cache of generated tets beside their surface file (docs/mesh.md).
#include "eipc/mesh/read_mesh.hpp"
#include "eipc/mesh/read_msh.hpp"
#include "eipc/mesh/write_mesh.hpp"
#include "eipc/tetrahedralize/tetrahedralize.hpp"
#include "eipc/util/file_bytes.hpp"
#include "eipc/util/fnv1a.hpp"

#include <cstdio>
#include <filesystem>

namespace eipc {

namespace {

/// Changes whenever tetrahedralize() would make other tets from the same input, so
/// older caches are not reused.
constexpr const char* kMesherSettings = "cgal-mesh3 features60 angle25 distance0.1 ratio3 exude v1";

}  // namespace

TetrahedralizedFile tetrahedralize_file(const std::string& surface_path, std::optional<double> size) {
  namespace fs = std::filesystem;
  const SurfaceMesh surface = read_surface_mesh(surface_path);
  TetrahedralizedFile out;
  out.size = size ? *size : default_tet_size(surface);
  char settings[64];
  std::snprintf(settings, sizeof settings, "|size %.17g|", out.size);
  const std::string key = fnv1a_hex(read_file_bytes(surface_path) + settings + kMesherSettings);
  const fs::path source(surface_path);
  out.cache_path = (source.parent_path() / (source.stem().string() + ".tets-" + key + ".msh")).string();
  std::error_code ec;
  if (fs::is_regular_file(out.cache_path, ec)) {
    out.mesh = read_msh(out.cache_path);
    out.from_cache = true;
    return out;
  }
  out.mesh = tetrahedralize(surface, TetrahedralizeOptions{out.size}, surface_path);
  try {
    write_msh(out.cache_path, out.mesh);
  } catch (const InputError&) {
    out.cache_path.clear();  // a read-only folder: the tets are made again next time
  }
  return out;
}

}  // namespace eipc
