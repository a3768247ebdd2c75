// Linear corotated elasticity (the paper's model).
//   Psi(F) = mu ||F - R||_F^2 + lambda/2 tr(R^T F - I)^2,   F = R S (polar, det R = +1)
//   P      = 2 mu (F - R) + lambda tr(S - I) R
//   dP/dF  = 2 mu I_9 + lambda vec(R) vec(R)^T + (lambda tr(S - I) - 2 mu) dvec(R)/dvec(F)
// with dR/dF from the rotation-variant SVD F = U diag(s) V^T (Kim & Eberle):
//   dvec(R)/dvec(F) = sum_{(i,j) in {(0,1),(1,2),(0,2)}} 2/(s_i + s_j) t_ij t_ij^T,
//   t_ij = vec(U (e_i e_j^T - e_j e_i^T) V^T) / sqrt(2)   (twist modes).
// Eigen-system of dP/dF: the twists t_ij with eigenvalue 2 mu + c 2/(s_i + s_j),
// c = lambda tr(S - I) - 2 mu; vec(R)/sqrt(3) with 2 mu + 3 lambda (> 0 for nu > -1);
// 5 more with 2 mu. So the PSD projection only clamps the three twist eigenvalues.
// Inverted tets (det F < 0) are handled: s_2 < 0 and the energy pushes back.
// dR/dF is singular where s_i + s_j = 0 (only possible for inverted F); there
// the denominator is clamped to +-1e-10 in magnitude.
#pragma once

#include "eipc/common.hpp"
#include "eipc/elasticity/rotation_variant_svd.hpp"

#include <array>

namespace eipc {

class LinearCorotated {
public:
  LinearCorotated(double mu, double lambda) : mu_(mu), lambda_(lambda) {}
  double energy(const Mat3& F) const;           ///< Psi(F)
  Mat3 stress(const Mat3& F) const;             ///< first Piola-Kirchhoff P = dPsi/dF
  Mat<9> stress_derivative(const Mat3& F) const;  ///< d2Psi/dF2 on column-major vec(F)
  /// d2Psi/dF2 projected to PSD analytically (twist eigenvalues clamped at 0).
  Mat<9> projected_stress_derivative(const Mat3& F) const;
  /// The same from F's rotation R (polar, det R = +1; U V^T of the rotation-variant SVD).
  double energy(const Mat3& F, const Mat3& R) const;
  Mat3 stress(const Mat3& F, const Mat3& R) const;
  /// dFdx^T (d2Psi/dF2, projected if `project`) dFdx of a tet with rest-shape
  /// inverse Dm_inv, from the structure of d2Psi/dF2 (identity plus rank 4,
  /// see the header comment) without forming the 9x9.
  Mat<12> element_hessian(const RotationVariantSvd& s, const Mat3& Dm_inv, bool project) const;

private:
  /// d2Psi/dF2 = 2 mu I + sum_k weight_k vec(M_k) vec(M_k)^T with M = (R, twists t_01, t_12, t_02).
  struct HessianTerms {
    std::array<Mat3, 4> M;
    std::array<double, 4> weight;
  };
  HessianTerms hessian_terms(const RotationVariantSvd& s, bool project) const;
  Mat<9> hessian(const RotationVariantSvd& s, bool project) const;
  double mu_, lambda_;
};

}  // namespace eipc
