// Lagged friction data, built once at the start of a step from x^n and the
// ContactSet at x^n (paper, Frictional Contact; IPC 2020).
#pragma once

#include "eipc/collisions/contact_set.hpp"

#include <vector>

namespace eipc {

/// One frictional contact. The relative tangential displacement is
///   u = T^T sum_i w_i (x_i - x^n_i)  in R^2,
/// where sum_i w_i x_i = (closest point on side A) - (closest point on side B) and T (3x2) is an
/// orthonormal basis of the plane perpendicular to the contact normal at x^n.
struct FrictionContact {
  ContactKind kind = ContactKind::point_triangle;
  std::array<int, 4> vertices{-1, -1, -1, -1};  ///< as in Contact
  std::array<double, 4> weights{0, 0, 0, 0};    ///< side A weights sum to +1, side B to -1
  Eigen::Matrix<double, 3, 2> basis = Eigen::Matrix<double, 3, 2>::Zero();
  double normal_force = 0.0;  ///< lambda_k (N), lagged
  double mu = 0.0;            ///< friction coefficient

  int num_vertices() const { return kind == ContactKind::point_ground ? 1 : 4; }
  int num_side_a() const { return kind == ContactKind::edge_edge ? 2 : 1; }
};

/// Friction contacts in the same order as the ContactSet they were built from.
struct FrictionSet {
  std::vector<FrictionContact> contacts;
  double epsv_h = 0.0;  ///< e = eps_v * h (m)

  std::size_t size() const { return contacts.size(); }
};

/// Orthonormal 3x2 basis (t1, t2) of the plane perpendicular to unit n: t1 = normalize(n x a) with a
/// the coordinate axis least aligned with n, t2 = n x t1. For n = +z this gives (ex, ey).
Eigen::Matrix<double, 3, 2> tangent_basis(const Vec3& n);

/// Build the lagged friction data at x^n. lambda_k = kappa m_k |b'(d_k)| with the edge-edge
/// mollifier m_k evaluated at x^n and treated as independent of d (it depends on the edges'
/// directions, not on their separation); the normal is the direction from the closest point on
/// side B to the one on side A (triangle normal for P_T, ea x eb for EA_EB, +z for the ground).
FrictionSet build_friction_set(const CollisionMesh& mesh, const Positions& x_n, const ContactSet& contacts,
                               double dhat, double kappa, double mu, double eps_v, double dt);

}  // namespace eipc
