// Harmonic coarsening of a fine tet mesh's linear stiffness onto a body's
// simulation nodes (numerical coarsening; docs/embedding.md, "Coarsened
// stiffness"). The nodes q are read as the volume-weighted P1 fit of a fine
// displacement field u: int N_c^T u dV = int N_c^T (J q) dV (N_c the embedding's
// P1 shape functions, J their values at the fine vertices). Of all fields with
// that fit, the one of least fine elastic energy is u = Phi q, and
//   K_c = Phi^T K_fine Phi,
// the linear stiffness the fine mesh has for that fit. A P1 embedding's own
// energy (J^T K_fine J at best) is the stiffest reading of q, K_c the softest;
// the difference is the embedding's locking. With an embedding equal to the fine
// mesh, K_c = K_fine.
#pragma once

#include "eipc/common.hpp"
#include "eipc/elasticity/material.hpp"
#include "eipc/embedding/embedded_body.hpp"

#include <string>

namespace eipc {

/// K_c (3n x 3n, node-major) on `nodes` (their node_rest and elements) for the
/// fine tet mesh (fine_rest, fine_tets) of `material`, linearised at rest. The
/// fine mesh must lie in the nodes' tets (it may be finer than the body's own
/// mesh). Throws InputError (naming `source`) when a node's tets hold none of the
/// fine mesh's volume.
MatX coarsened_stiffness(const SimulationNodes& nodes, const Positions& fine_rest, const Tets& fine_tets,
                         const Material& material, const std::string& source);

}  // namespace eipc
