// Stable neo-Hookean (Smith, de Goes, Kim 2018), the form without the log term:
//   Psi(F) = mu/2 (I_C - 3) - mu (J - 1) + lambda'/2 (J - 1)^2,
//   I_C = ||F||_F^2,  J = det F,  lambda' = lambda + mu  (reparametrised Lamé, so the
//   small-strain limit is linear elasticity with the user's mu, lambda).
//   P     = mu F + (lambda' (J - 1) - mu) dJ/dF,    dJ/dF = [f1 x f2, f2 x f0, f0 x f1]
//   dP/dF = mu I_9 + lambda' g g^T + (lambda' (J - 1) - mu) d2J/dF2,   g = vec(dJ/dF)
// with d2J/dF2 the 3x3 blocks of cross-product matrices [[0,-f2^,f1^],[f2^,0,-f0^],[-f1^,f0^,0]].
// Polynomial in F: smooth and finite for J <= 0 (inverted tets are pushed back).
#pragma once

#include "eipc/common.hpp"

namespace eipc {

class StableNeoHookean {
public:
  /// mu, lambda: the ordinary Lamé parameters; lambda' = lambda + mu is formed inside.
  StableNeoHookean(double mu, double lambda) : mu_(mu), lambda_(lambda + mu) {}
  double energy(const Mat3& F) const;
  Mat3 stress(const Mat3& F) const;
  Mat<9> stress_derivative(const Mat3& F) const;
  /// project_psd<9>(stress_derivative(F)).
  Mat<9> projected_stress_derivative(const Mat3& F) const;

private:
  double mu_, lambda_;  // lambda_ is the reparametrised lambda'
};

}  // namespace eipc
