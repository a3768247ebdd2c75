// Lumped (diagonal) mass of a tet mesh, and of a shell's triangles.
#pragma once

#include "eipc/common.hpp"

namespace eipc {

/// Per-vertex mass (size rest.rows(), one entry per vertex, not per dof):
///   m_v = sum over tets t containing v of density * volumes[t] / 4.
/// `volumes` are the per-tet volumes the elastic energy uses (geometric rest
/// volumes, or the fine-mesh volume inside each coarse tet for embeddings),
/// so sum(m) = density * sum(volumes) exactly up to round-off.
VecX lumped_mass(const Positions& rest, const Tets& tets, const VecX& volumes, double density);

/// Per-vertex mass of a shell: m_v = sum over triangles containing v of
/// density * thickness * area / 3 (rest areas), so sum(m) = density * thickness * area.
VecX shell_lumped_mass(const Positions& rest, const Tris& triangles, double thickness, double density);

}  // namespace eipc
