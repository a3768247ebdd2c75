// Lumped (diagonal) mass of a tet mesh.
#pragma once

#include "eipc/common.hpp"

namespace eipc {

/// Per-vertex mass (size rest.rows(), one entry per vertex, not per dof):
///   m_v = sum over tets t containing v of density * volumes[t] / 4.
/// `volumes` are the per-tet volumes the elastic energy uses (geometric rest
/// volumes, or the fine-mesh volume inside each coarse tet for embeddings),
/// so sum(m) = density * sum(volumes) exactly up to round-off.
VecX lumped_mass(const Positions& rest, const Tets& tets, const VecX& volumes, double density);

}  // namespace eipc
