// Tetrahedral meshes of closed triangle surfaces (CGAL's Mesh_3), so a soft body can be
// given as the surface a user has (STL, PLY, OBJ, VTP): docs/mesh.md, "Surface meshes
// for soft bodies".
#pragma once

#include "eipc/mesh/tet_mesh.hpp"

#include <optional>
#include <string>

namespace eipc {

/// What Mesh_3 is asked for, in the surface's own units.
struct TetrahedralizeOptions {
  double size = 0;  ///< target edge length of tets and surface triangles (> 0)
};

/// Tetrahedralizes the volume a closed surface bounds. The surface must be closed,
/// manifold and free of self-intersections (else InputError naming `source`, the first
/// offending edge or triangle pair and how many there are); its orientation may be
/// either way. Sharp edges (dihedral angle below 120 degrees) are kept as features.
/// The result is deterministic for a given surface and size, with positively oriented
/// tets; its boundary approximates the surface to within size / 10.
TetMesh tetrahedralize(const SurfaceMesh& surface, const TetrahedralizeOptions& options, const std::string& source);

/// The default size: the bounding box's diagonal / 20.
double default_tet_size(const SurfaceMesh& surface);

}  // namespace eipc

namespace eipc {

/// A surface file's tets and where they came from.
struct TetrahedralizedFile {
  TetMesh mesh;
  double size = 0;         ///< the tet size used (the file's units)
  std::string cache_path;  ///< the cached .msh beside the surface ("" if it could not be written)
  bool from_cache = false; ///< read from cache_path, not generated now
};

/// The tets of a closed surface file (any format read_surface_mesh reads), generated once
/// and kept beside it as "<stem>.tets-<key>.msh", where key is a fingerprint of the file's
/// bytes, the size and the mesher's settings: an edited surface or another size is
/// meshed anew; the same ones are read back. Without `size`, default_tet_size.
TetrahedralizedFile tetrahedralize_file(const std::string& surface_path, std::optional<double> size);

}  // namespace eipc
