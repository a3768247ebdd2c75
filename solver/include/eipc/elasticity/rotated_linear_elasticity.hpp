// Linear elasticity of a whole body in its best-fit rotation, for a stiffness
// matrix K on the nodes that no element formula gives (a coarsened stiffness,
// embedding/coarsened_stiffness.hpp):
//   Phi(q) = 1/2 d^T K d,   d_i = R^T (q_i - c) - (q0_i - c0),
// R the rotation of the shape-matching fit of q to the rest nodes q0 (polar
// factor of A = sum_i (q_i - c) (q0_i - c0)^T, uniform weights). K must
// annihilate the rest shape's rigid motions; then Phi is invariant under any
// rigid motion of q, and exact for small strain in any rotation. The gradient is
// exact (it includes dR/dq); the Hessian is the Gauss-Newton one D^T K D with
// D = dd/dq: PSD, and exact where d = 0 (docs/elasticity.md, "Rotated linear
// elasticity").
//
// Or one rotation per part (the connected parts of the fine mesh a stiffness is
// coarsened from, docs/embedding.md): Phi = sum_p 1/2 d_p^T K_p d_p, d_p in the
// rotation R_p, the polar factor of A_p = sum_i q_i b_{p,i}^T for fit vectors
// b_{p,i} (b_i = q0_i - c0 is the one-rotation fit above; a fit of a part's
// fine vertices x = J q is of this form). Each K_p must annihilate rigid motions.
#pragma once

#include "eipc/common.hpp"

#include <vector>

namespace eipc {

class RotatedLinearElasticity {
public:
  /// `stiffness`: 3n x 3n, symmetric, dofs node-major (3 v + i). Throws InputError
  /// on a size mismatch.
  RotatedLinearElasticity(const Positions& rest, MatX stiffness);
  /// One rotation per part: stiffnesses[p] (3n x 3n) in the rotation fitted with
  /// fits[p] (n x 3, the rows b_{p,i}; their mean is removed, so A_p ignores
  /// translations). Throws InputError on a size mismatch.
  RotatedLinearElasticity(const Positions& rest, std::vector<MatX> stiffnesses, std::vector<Positions> fits);

  int num_nodes() const { return static_cast<int>(rest_centered_.rows()); }
  int num_parts() const { return static_cast<int>(parts_.size()); }

  double energy(const Positions& q) const;
  /// Energy and dPhi/dq (3n, node-major).
  double energy_and_gradient(const Positions& q, VecX& gradient) const;
  /// Gradient and the Gauss-Newton Hessian (3n x 3n).
  void gradient_and_hessian(const Positions& q, VecX& gradient, MatX& hessian) const;

private:
  struct Part {
    MatX stiffness;
    Positions fit;  ///< b_i, summing to zero
  };
  struct Frame;
  Frame frame(const Part& part, const Positions& q) const;
  /// Adds part's gradient to `gradient` (sized 3n); returns its energy.
  double add_gradient(const Part& part, const Frame& f, VecX& gradient) const;
  void add_hessian(const Part& part, const Frame& f, MatX& hessian) const;

  Positions rest_centered_;   ///< p_i = q0_i - c0
  std::vector<Part> parts_;
};

}  // namespace eipc
