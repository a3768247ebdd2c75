// Mesh containers: a tetrahedral volume mesh and a triangle surface mesh.
#pragma once

#include "eipc/common.hpp"

namespace eipc {

/// Tetrahedral mesh. Tets are positively oriented when valid:
/// det(x1 - x0, x2 - x0, x3 - x0) > 0 (x0, x1, x2 counter-clockwise seen from x3's far side,
/// i.e. (x1 - x0) x (x2 - x0) points towards x3; the Gmsh/VTK convention).
struct TetMesh {
  Positions vertices;
  Tets tets;
  int num_vertices() const { return static_cast<int>(vertices.rows()); }
  int num_tets() const { return static_cast<int>(tets.rows()); }
};

/// Triangle surface mesh; a closed surface has counter-clockwise faces seen from outside.
struct SurfaceMesh {
  Positions vertices;
  Tris faces;
  int num_vertices() const { return static_cast<int>(vertices.rows()); }
  int num_faces() const { return static_cast<int>(faces.rows()); }
};

}  // namespace eipc
