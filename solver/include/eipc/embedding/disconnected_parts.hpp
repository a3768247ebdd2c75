// Embedding tets that hold disconnected parts of a body (a teddy's arm beside its
// torso, both inside one lattice tet) glue those parts together: one linear field
// moves both, so the arm cannot bend towards the torso and a squeeze meets the
// stiffness of both. Following Nesme, Kry, Jeřábková and Faure 2009 ("Preserving
// topology and elasticity for embedded deformable models"), each embedding tet is
// copied once per connected part of the fine material inside it, and copies share
// a node only where the material connects across them (docs/embedding.md).
#pragma once

#include "eipc/embedding/point_location.hpp"
#include "eipc/mesh/tet_mesh.hpp"

#include <vector>

namespace eipc {

/// Splits `embedding` in place. Input: the fine mesh, `quarter_tet[4 f + j]` the
/// embedding tet holding quarter j of fine tet f (embed_mesh's volume parts) and
/// `vertex_loc` each fine vertex's location. Two pieces of material in one
/// embedding tet belong to one part when their fine tets are face neighbours
/// (transitively). On return the embedding has one tet per (tet, part), in the
/// order of the original tets (a tet holding no material keeps one copy), its
/// vertices duplicated where parts do not connect; `quarter_tet` and `vertex_loc`
/// index the copies. A fine vertex takes the copy of its tet that holds material
/// of a fine tet around it, else the copy holding its own corner's quarter (its
/// weights then recomputed there, possibly extrapolated). Returns the number of
/// tets added.
int split_disconnected_parts(const Positions& fine_rest, const Tets& fine_tets, TetMesh& embedding,
                             std::vector<int>& quarter_tet, std::vector<TetLocation>& vertex_loc);

}  // namespace eipc
