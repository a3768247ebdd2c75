// Per-tetrahedron kinematics of linear (P1) tets.
//   Dm = [X1 - X0, X2 - X0, X3 - X0]   (rest shape matrix)
//   Ds = [x1 - x0, x2 - x0, x3 - x0]   (deformed shape matrix)
//   F  = Ds Dm^-1                       (deformation gradient, constant per tet)
//   vec(F) = dFdx * x_tet               (x_tet = [x0 y0 z0 x1 ... z3], vec column-major)
// so for Phi = V Psi(F):  grad = V dFdx^T vec(P),  Hess = V dFdx^T (d2Psi/dF2) dFdx.
#pragma once

#include "eipc/common.hpp"

#include <array>

namespace eipc {

/// The 9x12 Jacobian of vec(F) (column-major) w.r.t. the 12 stacked vertex coordinates.
using TetJacobian = Eigen::Matrix<double, 9, 12>;

/// vec(M): the 9 entries of M stacked column by column (M_ij at index i + 3j).
inline Vec<9> vectorize(const Mat3& M) { return Eigen::Map<const Vec<9>>(M.data()); }
/// Inverse of vectorize.
inline Mat3 unvectorize(const Vec<9>& v) { return Eigen::Map<const Mat3>(v.data()); }

/// Signed volume det(Dm) / 6 of the tet (x0, x1, x2, x3); positive when
/// (x1-x0, x2-x0, x3-x0) is right-handed.
double signed_tet_volume(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3);

/// Absolute rest volume of every tet.
VecX tet_volumes(const Positions& x, const Tets& tets);

/// Shape matrix [x1-x0, x2-x0, x3-x0] of tet t.
Mat3 shape_matrix(const Positions& x, const Tets& tets, int t);

/// Dm^-1 of tet t. Throws InputError (naming the tet) if the tet is degenerate,
/// |det Dm| <= 1e-12 * (longest edge)^3.
Mat3 rest_shape_inverse(const Positions& rest, const Tets& tets, int t);

/// F = Ds Dm^-1.
Mat3 deformation_gradient(const Positions& x, const Tets& tets, int t, const Mat3& Dm_inv);

/// dvec(F)/dx_tet. Column 3a+i (vertex a, coordinate i), row i+3j (F_ij):
///   dF_ij/dx_{a,i} = B_{a-1,j} for a = 1..3,  dF_ij/dx_{0,i} = -sum_k B_kj,  with B = Dm^-1.
TetJacobian deformation_gradient_jacobian(const Mat3& Dm_inv);

/// dFdx^T vec(P) without forming dFdx: entry 3a+i is sum_j B(a, j) P(i, j), with
/// B(a, j) = dF_ij/dx_{a,i} as above.
Vec<12> pull_back_stress(const Mat3& P, const Mat3& Dm_inv);

/// dFdx^T A dFdx for a 9x9 A on vec(F), using that F_ij depends only on the i-th
/// coordinates of the vertices:  (3a+i, 3b+k) -> sum_jl B(a,j) B(b,l) A(i+3j, k+3l)
/// (about a third of the work of the dense 12x9x9x12 product).
Mat<12> pull_back_stress_derivative(const Mat<9>& A, const Mat3& Dm_inv);

/// dFdx^T (a I_9 + sum_k w_k vec(M_k) vec(M_k)^T) dFdx without forming the 9x9:
/// a (B B^T kron I_3) + sum_k w_k g_k g_k^T with g_k = pull_back_stress(M_k, Dm_inv).
/// Exactly symmetric (symmetrised); about a third of the flops of forming the
/// 9x9 and calling pull_back_stress_derivative.
Mat<12> pull_back_identity_plus_rank4(double a, const std::array<Mat3, 4>& M, const std::array<double, 4>& w,
                                      const Mat3& Dm_inv);

/// The 12 stacked coordinates of tet t.
Vec<12> tet_coordinates(const Positions& x, const Tets& tets, int t);

}  // namespace eipc
