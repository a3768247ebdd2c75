// Fuzz-target helper: what the scene loader does with a tetrahedral mesh after
// reading it, so the fuzzers also cover validation and surface extraction.
#pragma once

#include "eipc/mesh/surface.hpp"
#include "eipc/mesh/validate.hpp"

#include <string>

namespace eipc::fuzz {

inline void check_like_scene_loader(const TetMesh& read, const std::string& path) {
  validate_tet_mesh(read, path);
  const TetMesh m = remove_unused_vertices(read);
  validate_closed_surface(boundary_faces(m.tets), static_cast<int>(m.vertices.rows()), path);
  extract_surface(read);
}

}  // namespace eipc::fuzz
