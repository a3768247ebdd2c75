// Barrier potential B(x) = sum_k m_k b(d_k(x)) over a ContactSet (no kappa; the
// caller scales by kappa and h^2). m_k is the edge-edge mollifier (1 otherwise).
#pragma once

#include "eipc/collisions/contact_set.hpp"

#include <Eigen/SparseCore>

#include <vector>

namespace eipc {

/// Local energy m b(d) of one contact at x. The distance type stored in the contact is used,
/// so a ContactSet describes the configuration it was built at: rebuild it when x changes.
double contact_barrier(const Contact& c, const Positions& x, double dhat, std::optional<double> ground_height);
/// Gradient of the local energy w.r.t. the contact's stacked vertices (first 3 * num_vertices entries).
Vec<12> contact_barrier_gradient(const Contact& c, const Positions& x, double dhat,
                                 std::optional<double> ground_height);
/// Hessian of the local energy (top-left 3 * num_vertices block), optionally projected to PSD.
Mat<12> contact_barrier_hessian(const Contact& c, const Positions& x, double dhat,
                                std::optional<double> ground_height, bool project_psd);

/// B(x) = sum_k m_k b(d_k)
double barrier_potential(const CollisionMesh& mesh, const Positions& x, const ContactSet& contacts, double dhat);
/// grad B, size 3N (x0 y0 z0 x1 ...).
VecX barrier_potential_gradient(const CollisionMesh& mesh, const Positions& x, const ContactSet& contacts,
                                double dhat);
/// The per-contact 12x12 blocks that barrier_potential_hessian scatters, in contact order.
std::vector<Mat<12>> barrier_potential_local_hessians(const Positions& x, const ContactSet& contacts, double dhat,
                                                      bool project_psd);

}  // namespace eipc
