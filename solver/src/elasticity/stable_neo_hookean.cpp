#include "eipc/elasticity/stable_neo_hookean.hpp"

#include "eipc/elasticity/tet_kinematics.hpp"
#include "eipc/geometry/cross_matrix.hpp"
#include "eipc/optim/psd.hpp"

#include <Eigen/Geometry>
#include <Eigen/LU>

namespace eipc {

namespace {
/// dJ/dF = cofactor matrix of F, columns f1 x f2, f2 x f0, f0 x f1.
Mat3 det_gradient(const Mat3& F) {
  Mat3 g;
  g.col(0) = F.col(1).cross(F.col(2));
  g.col(1) = F.col(2).cross(F.col(0));
  g.col(2) = F.col(0).cross(F.col(1));
  return g;
}

}  // namespace

double StableNeoHookean::energy(const Mat3& F) const {
  // Same function, written in H = F - I so the O(|H|) terms cancel analytically
  // (accurate to round-off relative to Psi even for tiny strains):
  //   I_C - 3 = |H|^2 + 2 tr H,  J - 1 = tr H + I2(H) + det H,  I2 = ((tr H)^2 - tr(H^2)) / 2
  //   Psi = mu/2 |H|^2 - mu (I2 + det H) + lambda'/2 (J - 1)^2
  const Mat3 H = F - Mat3::Identity();
  const double trH = H.trace();
  const double higher = 0.5 * (trH * trH - (H * H).trace()) + H.determinant();
  const double Jm1 = trH + higher;
  return 0.5 * mu_ * H.squaredNorm() - mu_ * higher + 0.5 * lambda_ * Jm1 * Jm1;
}

Mat3 StableNeoHookean::stress(const Mat3& F) const {
  const double J = F.determinant();
  return mu_ * F + (lambda_ * (J - 1.0) - mu_) * det_gradient(F);
}

Mat<9> StableNeoHookean::stress_derivative(const Mat3& F) const {
  const double J = F.determinant();
  const Vec<9> g = vectorize(det_gradient(F));
  Mat<9> HJ = Mat<9>::Zero();
  const Mat3 f0 = cross_matrix(F.col(0)), f1 = cross_matrix(F.col(1)), f2 = cross_matrix(F.col(2));
  HJ.block<3, 3>(0, 3) = -f2;
  HJ.block<3, 3>(0, 6) = f1;
  HJ.block<3, 3>(3, 0) = f2;
  HJ.block<3, 3>(3, 6) = -f0;
  HJ.block<3, 3>(6, 0) = -f1;
  HJ.block<3, 3>(6, 3) = f0;
  return mu_ * Mat<9>::Identity() + lambda_ * g * g.transpose() + (lambda_ * (J - 1.0) - mu_) * HJ;
}

Mat<9> StableNeoHookean::projected_stress_derivative(const Mat3& F) const {
  return project_psd<9>(stress_derivative(F));
}

}  // namespace eipc
