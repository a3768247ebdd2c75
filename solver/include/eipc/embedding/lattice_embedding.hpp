// Automatic embedding meshes: a regular lattice of cubes over the body, keeping
// the cells that contain a fine vertex, each cell split into six tets (Kuhn
// subdivision, conforming between neighbouring cells). The spacing is searched
// so the mesh has about the requested number of vertices.
#pragma once

#include "eipc/mesh/tet_mesh.hpp"

namespace eipc {

/// Lattice with cube edge `spacing` covering every point of `x`.
TetMesh lattice_embedding_with_spacing(const Positions& x, double spacing);

/// Lattice covering every point of `x` whose vertex count is as close to
/// `target_vertices` as the search finds; throws InputError if it cannot get
/// within 20%.
TetMesh lattice_embedding(const Positions& x, int target_vertices);

}  // namespace eipc
