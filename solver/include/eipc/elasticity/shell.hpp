// Elastic potential of a thin shell (a triangle surface of thickness t):
//   Phi(x) = sum_T  t A_T Psi_m(F_T)  +  sum_T  W_b,T(theta)
// membrane: Saint Venant-Kirchhoff in plane stress on the triangle's 3x2
// deformation gradient F = Ds Dm^-1 (Dm: the rest triangle in its own 2-D frame);
// bending: a per-triangle Kirchhoff plate energy whose curvature tensor is
// recovered from the dihedral angles of the triangle's three edges
// (docs/elasticity.md, "Shells").
//
// One element per triangle with a 6-vertex stencil: the triangle's vertices
// (v0, v1, v2) and, for each edge i (the edge opposite v_i), the vertex across
// it (-1 on the boundary). The element's 18 dofs are the stencil's vertices in
// that order; missing vertices have zero gradient and Hessian rows.
//
// Evaluation is parallel over triangles (TBB), summed / scattered in triangle
// order: bit-identical for any thread count.
#pragma once

#include "eipc/common.hpp"
#include "eipc/elasticity/material.hpp"

#include <array>
#include <vector>

namespace eipc {

/// The signed dihedral angle at edge (e0, e1) between triangle (c, e0, e1) and
/// triangle (d, e1, e0): 0 when flat, in (-pi, pi].
double dihedral_angle(const Vec3& c, const Vec3& e0, const Vec3& e1, const Vec3& d);
/// Its gradient over (c, e0, e1, d), 12 dofs in that order.
void dihedral_angle_gradient(const Vec3& c, const Vec3& e0, const Vec3& e1, const Vec3& d, double& theta,
                             Vec<12>& gradient);
/// Its gradient and Hessian (the gradient the same bit for bit).
void dihedral_angle_derivatives(const Vec3& c, const Vec3& e0, const Vec3& e1, const Vec3& d, double& theta,
                                Vec<12>& gradient, Mat<12>& hessian);

class ShellBody {
public:
  /// Throws InputError on a bad material, thickness <= 0, a degenerate rest
  /// triangle, an index out of range or an edge shared by more than two triangles.
  ShellBody(const Positions& rest, const Tris& triangles, double thickness, const Material& material);

  int num_vertices() const { return num_vertices_; }
  int num_triangles() const { return static_cast<int>(stencils_.size()); }
  double thickness() const { return thickness_; }
  /// Per triangle: (v0, v1, v2, across edge 0, across edge 1, across edge 2), -1 where none.
  const std::vector<std::array<int, 6>>& stencils() const { return stencils_; }
  const VecX& rest_areas() const { return area_; }
  /// Plate bending stiffness D = E t^3 / (12 (1 - nu^2)) (N m).
  double bending_stiffness() const;

  /// Reads each edge's angle at x on the branch of the circle it has reached:
  /// from then on an angle is taken within pi of its value at x, so a fold
  /// that closes past pi (a coarse hinge folded flat, over itself) goes on
  /// growing instead of jumping by 2 pi, and the bending energy, which couples
  /// a triangle's three angles, stays continuous. The time stepper calls it at
  /// the start of every step (docs/elasticity.md, "Folds past pi"). Before the
  /// first call the branch is the rest angle's.
  void follow_angles(const Positions& x);

  double energy(const Positions& x) const;
  double energy_and_add_gradient(const Positions& x, VecX& g, int dof_offset = 0) const;
  void add_gradient(const Positions& x, VecX& g, int dof_offset = 0) const;
  /// Per-triangle gradient and Hessian (membrane plus bending; with project each
  /// projected to PSD apart), in triangle order.
  void element_derivatives(const Positions& x, bool project, std::vector<Vec<18>>& gradients,
                           std::vector<Mat<18>>& hessians) const;
  void add_element_gradients(const std::vector<Vec<18>>& local, VecX& g, int dof_offset) const;

  /// One triangle's pieces (membrane: its 3 vertices; bending: its 18-dof stencil).
  double membrane_energy(const Positions& x, int t) const;
  Vec<9> membrane_gradient(const Positions& x, int t) const;
  Mat<9> membrane_hessian(const Positions& x, int t, bool project) const;
  double bending_energy(const Positions& x, int t) const;
  /// bending_derivatives()' gradient alone (the same bit for bit).
  Vec<18> bending_gradient(const Positions& x, int t) const;
  void bending_derivatives(const Positions& x, int t, bool project, Vec<18>& gradient, Mat<18>& hessian) const;

private:
  /// The dihedral angle of triangle t's edge i at x (0 if the edge is on the boundary),
  /// on the edge's branch.
  double edge_angle(const Positions& x, int t, int i) const;
  /// theta (in (-pi, pi]) plus the multiple of 2 pi that brings it within pi of the branch.
  double on_branch(int t, int i, double theta) const;
  void check_positions(const Positions& x) const;

  int num_vertices_;
  double thickness_;
  Material material_;
  double mu_, lambda_;                         ///< plane-stress Lamé: mu, lambda = E nu / (1 - nu^2)
  std::vector<std::array<int, 6>> stencils_;
  VecX area_;
  std::vector<Eigen::Matrix<double, 3, 2>> beta_;  ///< dF/dx_k = beta_k^T per vertex (rows)
  std::vector<Vec3> rest_angle_;               ///< rest dihedral angle of each edge
  std::vector<Vec3> branch_angle_;             ///< each edge's angle at the last follow_angles()
  std::vector<Mat3> bending_form_;             ///< W_b = 1/2 dtheta^T Q dtheta
};

}  // namespace eipc
