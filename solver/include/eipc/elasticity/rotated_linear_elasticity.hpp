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
#pragma once

#include "eipc/common.hpp"

namespace eipc {

class RotatedLinearElasticity {
public:
  /// `stiffness`: 3n x 3n, symmetric, dofs node-major (3 v + i). Throws InputError
  /// on a size mismatch.
  RotatedLinearElasticity(const Positions& rest, MatX stiffness);

  int num_nodes() const { return static_cast<int>(rest_centered_.rows()); }

  double energy(const Positions& q) const;
  /// Energy and dPhi/dq (3n, node-major).
  double energy_and_gradient(const Positions& q, VecX& gradient) const;
  /// Gradient and the Gauss-Newton Hessian (3n x 3n).
  void gradient_and_hessian(const Positions& q, VecX& gradient, MatX& hessian) const;

private:
  struct Frame;
  Frame frame(const Positions& q) const;
  double gradient_at(const Frame& f, VecX& gradient) const;

  Positions rest_centered_;   ///< p_i = q0_i - c0
  MatX stiffness_;
};

}  // namespace eipc
