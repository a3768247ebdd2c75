// The barrier and friction Hessians as triplets in the 3N full-space indices:
// the plain assembly of the per-contact blocks that the solver scatters
// straight into its matrix (IncrementalPotential), kept as the tests' and
// benchmarks' oracle for that assembly.
#pragma once

#include "eipc/barrier/barrier_potential.hpp"
#include "eipc/friction/friction_potential.hpp"

#include <Eigen/SparseCore>

#include <vector>

namespace eipc {

/// Hessian of B as triplets in the 3N full-space indices (duplicates summed by setFromTriplets);
/// each contact's local block is projected to PSD (eigenvalue clamp) when project_psd is set.
std::vector<Eigen::Triplet<double>> barrier_potential_hessian(const CollisionMesh& mesh, const Positions& x,
                                                              const ContactSet& contacts, double dhat,
                                                              bool project_psd);

/// Hessian of D as triplets in the 3N full-space indices.
std::vector<Eigen::Triplet<double>> friction_potential_hessian(const Positions& x, const Positions& x_n,
                                                               const FrictionSet& friction, bool project_psd);

}  // namespace eipc
