// Elastic potential of one tet mesh:  Phi(x) = sum_t V_t Psi(F_t(x)).
// Per tet (see tet_kinematics.hpp):  grad_t = V_t dFdx^T vec(P),
// Hess_t = V_t dFdx^T (d2Psi/dF2) dFdx; with project = true d2Psi/dF2 is first
// projected to PSD (see ConstitutiveModel::stress_derivative), so Hess_t is PSD.
//
// Evaluation is parallel over tets (TBB) and deterministic for any thread count:
// per-tet results are written to a vector, then summed / scattered in tet order.
//
// energy() and tet_derivatives() remember each tet's last SVD (a trial point's
// energy, then derivatives there): call them from one thread at a time per body.
//
// Inverted tets (det F <= 0) during a solve: linear_corotated and neo_hookean are
// finite and smooth there and push the tet back (energy grows with inversion);
// abd is finite too but symmetric under F -> -F. No model throws on inversion.
#pragma once

#include "eipc/common.hpp"
#include "eipc/elasticity/constitutive_model.hpp"
#include "eipc/elasticity/material.hpp"

#include <Eigen/SparseCore>
#include <vector>

namespace eipc {

class ElasticBody {
public:
  /// Volumes default to the geometric rest volumes |det Dm| / 6.
  ElasticBody(const Positions& rest, const Tets& tets, const Material& material);
  /// `volumes[t]` replaces the volume of tet t (an embedding passes the fine-mesh
  /// volume inside each coarse tet; it may be 0). Throws InputError on a bad
  /// material, a degenerate rest tet, a vertex index out of range, or a negative
  /// or wrongly sized volume vector.
  ElasticBody(const Positions& rest, const Tets& tets, const VecX& volumes, const Material& material);

  int num_vertices() const { return num_vertices_; }
  int num_tets() const { return static_cast<int>(tets_.rows()); }
  const Tets& tets() const { return tets_; }
  const VecX& volumes() const { return volumes_; }
  const Material& material() const { return material_; }
  const ConstitutiveModel& model() const { return model_; }

  /// Phi(x). x has num_vertices() rows.
  double energy(const Positions& x) const;
  /// g[dof_offset + 3v + i] += dPhi/dx_{v,i}.
  void add_gradient(const Positions& x, VecX& g, int dof_offset = 0) const;
  /// energy() and add_gradient() in one pass over the tets (the same values bit for bit).
  double energy_and_add_gradient(const Positions& x, VecX& g, int dof_offset = 0) const;
  /// Appends 144 triplets per tet, (dof_offset + 3v + i, dof_offset + 3w + j), in tet order.
  void add_hessian_triplets(const Positions& x, std::vector<Eigen::Triplet<double>>& out,
                            int dof_offset = 0, bool project = true) const;

  /// Per-tet gradients and Hessians (one constitutive evaluation per tet), in tet order.
  void tet_derivatives(const Positions& x, bool project, std::vector<Vec<12>>& gradients,
                       std::vector<Mat<12>>& hessians) const;
  /// The Hessians of tet_derivatives() alone.
  void tet_hessians(const Positions& x, bool project, std::vector<Mat<12>>& hessians) const;
  /// g[dof_offset + 3 v + i] += each tet's gradient from tet_derivatives(), in tet order
  /// (the order of add_gradient()'s sums).
  void add_tet_gradients(const std::vector<Vec<12>>& local, VecX& g, int dof_offset) const;

  /// Single-tet pieces (12 dofs: the tet's 4 vertices in tets() order).
  double tet_energy(const Positions& x, int t) const;
  Vec<12> tet_gradient(const Positions& x, int t) const;
  Mat<12> tet_hessian(const Positions& x, int t, bool project) const;

private:
  void check_positions(const Positions& x) const;
  /// Throws unless g has this body's 3 n entries from dof_offset on (`caller` names the method).
  void check_gradient_target(const VecX& g, int dof_offset, const char* caller) const;

  int num_vertices_;
  Tets tets_;
  VecX volumes_;
  Material material_;
  ConstitutiveModel model_;
  std::vector<Mat3> Dm_inv_;
  /// Per tet, the rotation and SVD of its last F (energy(), add_gradient() and
  /// tet_derivatives() reuse them), so these must not run concurrently on one body.
  mutable std::vector<RotationMemo> rotation_memo_;
};

}  // namespace eipc
