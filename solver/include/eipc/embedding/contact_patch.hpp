// Contact-patch nodes of an embedded body (docs/embedding.md, "Contact-patch
// nodes"): chosen collision vertices, where the grippers press, become simulation
// nodes of their own, appended after the embedding's nodes, so that the contact
// surface there can dent as the fine mesh does instead of following the coarse
// fit. Only a coarsened stiffness gives such a node elasticity: it condenses the
// fine mesh's stiffness exactly onto the embedding's nodes and the patch.
#pragma once

#include "eipc/common.hpp"
#include "eipc/embedding/embedded_body.hpp"

#include <string>
#include <vector>

namespace eipc {

/// Makes each of `vertices` (fine vertices, distinct) a node at its rest position
/// that it follows with weight 1 (all four map slots on that node, so it is in no
/// affine patch); `nodes.patch_vertices` records them in node order.
void add_contact_patch(SimulationNodes& nodes, const Positions& fine_rest, const std::vector<int>& vertices);

/// A finer tet mesh's map to the nodes (locate_in_nodes, which knows only the
/// embedding's elements): binds the finer vertex at each patch vertex's rest
/// position to that patch node. Throws InputError (naming `source`) when a patch
/// vertex has no finer vertex within 1e-9 of the finer mesh's bounding-box diagonal.
void bind_contact_patch(NodeMap& finer_map, const Positions& finer_rest, const SimulationNodes& nodes,
                        const Positions& fine_rest, const std::string& source);

/// The one-rotation fit for RotatedLinearElasticity's part form that ignores the
/// patch nodes: b_i = q0_i - c0 over the embedding's own nodes (c0 their mean),
/// 0 for patch nodes, so the body's rotation is the coarse fit's, not the dents'.
Positions embedding_rotation_fit(const SimulationNodes& nodes);

/// The trajectory's rest barycentric weights of every fine vertex in its element
/// (fine_map's weights, recomputed for patch vertices, which follow their own node).
Eigen::Matrix<double, Eigen::Dynamic, 4, Eigen::RowMajor> element_weights(const SimulationNodes& nodes,
                                                                          const Positions& fine_rest);

}  // namespace eipc
