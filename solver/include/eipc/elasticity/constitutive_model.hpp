// A Material turned into an evaluable energy density Psi(F) with its first
// Piola-Kirchhoff stress P = dPsi/dF and d2Psi/dF2 (9x9 on column-major vec(F)).
#pragma once

#include "eipc/common.hpp"
#include "eipc/elasticity/abd_orthogonality.hpp"
#include "eipc/elasticity/linear_corotated.hpp"
#include "eipc/elasticity/material.hpp"
#include "eipc/elasticity/rotation_memo.hpp"
#include "eipc/elasticity/stable_neo_hookean.hpp"

#include <variant>

namespace eipc {

class ConstitutiveModel {
public:
  /// Validates the material (InputError on bad E, nu, density) and sets the
  /// model parameters: Lamé (mu, lambda) for linear_corotated / neo_hookean,
  /// kappa = abd_stiffness(E, nu) for abd.
  explicit ConstitutiveModel(const Material& material);

  double energy(const Mat3& F) const;
  Mat3 stress(const Mat3& F) const;
  /// d2Psi/dF2; with project = true its PSD projection (analytic for linear
  /// corotated, 9x9 eigen-decomposition otherwise). Because vec(F) = dFdx x_tet
  /// with dFdx onto R^9, V dFdx^T H dFdx is PSD exactly when H is: projecting the
  /// 9x9 gives a PSD element Hessian and changes nothing when it already was PSD.
  Mat<9> stress_derivative(const Mat3& F, bool project = false) const;
  /// energy() and stress() reusing the rotation of F kept in `memo` (models
  /// without one ignore it).
  double energy(const Mat3& F, RotationMemo& memo) const;
  Mat3 stress(const Mat3& F, RotationMemo& memo) const;
  /// P and the element Hessian dFdx^T (d2Psi/dF2) dFdx of a tet with rest-shape
  /// inverse Dm_inv (exactly symmetric), reusing `memo` like the above (one SVD); linear
  /// corotated skips the 9x9 (LinearCorotated::element_hessian).
  void element_derivatives(const Mat3& F, const Mat3& Dm_inv, bool project, RotationMemo& memo, Mat3& P,
                           Mat<12>& H) const;
  /// The element Hessian of element_derivatives() alone.
  void element_hessian(const Mat3& F, const Mat3& Dm_inv, bool project, RotationMemo& memo, Mat<12>& H) const;

private:
  std::variant<LinearCorotated, StableNeoHookean, AbdOrthogonality> model_;
};

}  // namespace eipc
