// ABD orthogonality energy (Lan et al. 2022). With a single embedding tet the
// body is affine and this is exactly affine body dynamics.
//   Psi(F) = kappa ||A||_F^2,  A = F F^T - I
//   P      = 4 kappa A F
//   dP/dF [dF] = 4 kappa ((dF F^T + F dF^T) F + A dF)
// kappa = abd_stiffness(E, nu) = mu/4 (see material.hpp). Polynomial in F:
// defined for inverted F, but note Psi(F) = Psi(-F): it penalises
// non-orthogonality, not reflection.
#pragma once

#include "eipc/common.hpp"

namespace eipc {

class AbdOrthogonality {
public:
  explicit AbdOrthogonality(double kappa) : kappa_(kappa) {}
  double energy(const Mat3& F) const;
  Mat3 stress(const Mat3& F) const;
  Mat<9> stress_derivative(const Mat3& F) const;
  /// project_psd<9>(stress_derivative(F)).
  Mat<9> projected_stress_derivative(const Mat3& F) const;

private:
  double kappa_;
};

}  // namespace eipc
