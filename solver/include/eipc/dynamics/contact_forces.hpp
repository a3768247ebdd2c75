// Physical contact forces (newtons) for output and attribution to body pairs.
//   normal force on the vertices:   -kappa grad_x (m_k b(d_k))
//   friction force on the vertices: -grad_x D_k       (D in joules; E uses h^2 kappa B and h^2 D,
//                                                      so these are the forces of the potentials
//                                                      before the h^2 scaling)
// Each contact's potential is translation invariant, so the force on side B is minus the force on
// side A; the per-contact results below are the force on side A (the point / edge a) from side B.
#pragma once

#include "eipc/dynamics/step_stats.hpp"
#include "eipc/friction/friction_set.hpp"

#include <vector>

namespace eipc {

/// Per contact: normal force on side A, -kappa sum_{i in A} grad_i (m b).
std::vector<Vec3> contact_normal_forces(const Positions& x, const ContactSet& contacts, double dhat, double kappa);

/// Per friction contact: friction force on side A, -mu lambda (f1(y)/y) T u.
std::vector<Vec3> contact_friction_forces(const Positions& x, const Positions& x_n, const FrictionSet& friction);

/// Sum per body pair: the force on body a from body b (a < b; b = -1 for the ground) and the
/// number of ContactSet pairs between them. Self-contacts (both sides on one body) are not
/// reported: their net force on the body is zero. Pairs that only have friction contacts
/// (lagged from x^n) are reported with pairs = 0. Sorted by (a, b) with ground entries (b = -1)
/// first for each a.
std::vector<BodyPairForce> body_pair_forces(const CollisionMesh& mesh, const ContactSet& contacts,
                                            const std::vector<Vec3>& normal_forces, const FrictionSet& friction,
                                            const std::vector<Vec3>& friction_forces);

}  // namespace eipc
