// The barrier-augmented incremental potential of one backward-Euler step in
// reduced coordinates q (docs/design.md §3):
//   E(q) = 1/2 (q - q~)^T M^q (q - q~) + h^2 (Phi(q) - f^q . q)
//        + h^2 kappa sum_k b(d_k(Jq)) + h^2 sum_k D_k(Jq, x^n)
//        + 1/2 (q - q^n)^T (beta h K^n) (q - q^n)             (Rayleigh damping)
//        + sum_i w_i (k/2 |q_i - q^_i|^2 - lambda_i . (q_i - q^_i))  (augmented Lagrangian)
#pragma once

#include "eipc/collisions/contact_set.hpp"
#include "eipc/friction/friction_set.hpp"
#include "eipc/embedding/contact_pullback.hpp"
#include "eipc/dynamics/dof_system.hpp"
#include "eipc/dynamics/growing_pattern.hpp"
#include "eipc/dynamics/hessian_pattern.hpp"
#include "eipc/dynamics/params.hpp"

#include <array>
#include <optional>
#include <vector>

namespace eipc {

/// Which blocks of a Newton matrix are projected to PSD: per element (elastic)
/// and per contact (barrier and friction). From a bool, both or neither:
/// projected Newton, or the exact Hessian.
struct Projection {
  bool elastic = true, contact = true;
  Projection(bool both = true) : elastic(both), contact(both) {}  // NOLINT: implicit by design
  /// The exact elastic Hessian with projected contact blocks (NewtonMatrix::shifted).
  static Projection contacts_only() {
    Projection p(false);
    p.contact = true;
    return p;
  }
};

/// Augmented-Lagrangian pull of a prescribed node towards its target.
struct PrescribedTarget {
  int node;
  Vec3 target;
  Vec3 lambda = Vec3::Zero();
  double weight;  ///< node mass (or a typical mass for massless nodes)
};

/// What the solves of one time step share: the start state, the inertial
/// prediction, the lagged friction, and (when prescribed nodes are pulled by
/// the augmented Lagrangian) their targets and penalty.
struct StepContext {
  Positions q_prev;                  ///< q^n
  Positions q_tilde;                 ///< q^n + h qdot^n
  Positions x_prev;                  ///< collision vertices at t^n
  Positions external_force;          ///< J^T M g on the nodes
  std::optional<FrictionSet> friction;
  /// beta h K(q^n) from damping_matrix(), empty if no body is damped. Symmetric
  /// bit for bit (every element's and dense body's Hessian is), so the products
  /// D (q - q^n) read its columns as its rows.
  SparseMatrix damping;
  /// The last product D x and its x (x = q - q^n): a line search's accepted
  /// trial is where the next gradient is taken. Empty it when setting damping.
  mutable VecX damping_memo_x, damping_memo;
  std::vector<PrescribedTarget> targets;  ///< active only in augmented-Lagrangian mode
  double al_stiffness = 0.0;
  /// Newton's first direction of each solve is assembled afresh instead of
  /// taken from the last step's matrix (TimeStepper: a prescribed node left
  /// its inertial prediction, e.g. at a keyframe).
  bool fresh_start = false;
  /// Newton matrices take the elastic part (mass and h^2 times the elastic
  /// Hessians) of the first one assembled with the same projection flag since
  /// the memo below was last emptied; the damping, the augmented Lagrangian,
  /// contact and friction blocks are added afresh, and the gradient stays exact
  /// (a chord in the elastic part: docs/performance.md, "The elastic Hessian
  /// kept"). TimeStepper sets it and carries the memo from step to step; off,
  /// every matrix is the Hessian at its own q.
  bool reuse_elastic_hessian = false;
  /// That elastic part (values on the fixed pattern), unprojected and
  /// projected; empty until assembled.
  mutable std::array<std::vector<double>, 2> elastic_hessian_memo;
  /// The next matrix assembles its elastic part afresh (Newton: a direction
  /// that did not contract, so no part of the matrix is trusted).
  void forget_elastic_hessian() const {
    for (std::vector<double>& m : elastic_hessian_memo) m.clear();
  }
};

/// Not thread-safe: the Hessian assembly keeps a growing sparsity pattern and
/// scratch buffers between calls (one potential per simulation).
class IncrementalPotential {
public:
  IncrementalPotential(const DofSystem& system, const SimulationParams& params);

  /// Contact pairs closer than dhat at q among the candidates.
  ContactSet contacts(const Positions& q, const Candidates& candidates) const;

  double energy(const StepContext& s, const Positions& q, const ContactSet& contacts) const;
  /// Phi of each elastic body at q (elastic_bodies(), rotated_bodies(), then shell_bodies() order): energy()'s elastic
  /// part, which does not depend on the contacts, so it can be computed beside them.
  /// Given `elastic`, also dPhi/dq into it (zeroed, 3 x nodes) from the same pass
  /// over the tets: the elastic part of gradient() at q, bit for bit.
  std::vector<double> elastic_energies(const Positions& q, VecX* elastic = nullptr) const;
  /// energy()'s damping term, 1/2 (q - q^n)^T D (q - q^n): no contacts either.
  double damping_energy(const StepContext& s, const Positions& q) const;
  /// energy() with the parts that do not depend on the contacts given
  /// (elastic_energies(q), damping_energy(s, q)); the same value bit for bit.
  double energy(const StepContext& s, const Positions& q, const ContactSet& contacts, const std::vector<double>& elastic,
                double damping) const;
  VecX gradient(const StepContext& s, const Positions& q, const ContactSet& contacts) const;
  /// gradient()'s contact and friction part at q (independent of the elastic part).
  VecX contact_gradient(const StepContext& s, const Positions& q, const ContactSet& contacts) const;
  /// gradient() from its elastic part (elastic_energies(q, elastic)) and its
  /// contact part (contact_gradient()): the same value bit for bit.
  VecX gradient_from_parts(const StepContext& s, const Positions& q, const VecX& elastic, const VecX& contact) const;
  /// With `project`, per-element and per-contact blocks are projected to PSD (projected Newton).
  SparseMatrix hessian(const StepContext& s, const Positions& q, const ContactSet& contacts, bool project = true) const;
  /// gradient() and hessian() together (one constitutive evaluation per element);
  /// `project` says which blocks are projected.
  /// `known_gradient`: gradient() at q if already known (then not computed again).
  void gradient_and_hessian(const StepContext& s, const Positions& q, const ContactSet& contacts, Projection project,
                            VecX& gradient, SparseMatrix& hessian, const VecX* known_gradient = nullptr) const;

  /// beta h K(q) summed over damped bodies (K the projected elastic Hessian), on
  /// the fixed Hessian pattern so the assembly adds it value by value; empty if
  /// no body is damped.
  SparseMatrix damping_matrix(const Positions& q) const;
  /// How often the Newton matrix's pattern grew for new contact node pairs.
  int pattern_growths() const { return contact_pattern_.growths(); }

private:
  /// J^T (kappa grad B(x) + grad D(x)) at collision positions x, before the h^2 scale.
  VecX contact_gradient_at_x(const StepContext& s, const Positions& x, const ContactSet& contacts) const;
  /// The Newton matrix's values on the fixed pattern at q: mass and h^2 times
  /// the elastic Hessians (no damping, no augmented Lagrangian); and dPhi/dq into `elastic`.
  void elastic_part(const Positions& q, bool project, std::vector<double>& values, VecX& elastic) const;
  /// dPhi/dq of every elastic and rotated body at q, into `elastic` (zeroed, 3 x nodes).
  void elastic_gradient(const Positions& q, VecX& elastic) const;
  /// Adds scale * (each tet's Hessian in local_h_[i]) of elastic body i into values on the fixed pattern.
  void scatter_elements(std::size_t i, double scale, double* values) const;
  /// Adds scale * hessian (column-major, 3n x 3n) of rotated body i into values on the fixed pattern.
  void scatter_dense(std::size_t i, const MatX& hessian, double scale, double* values) const;

  /// Adds J_c^T local J_c of every contact into H's values; node pairs missing
  /// from H's pattern go to `missing` instead.
  template <class ContactList>
  void scatter_contacts(const ContactList& contacts, const std::vector<Mat<12>>& local, SparseMatrix& H,
                        std::vector<std::pair<int, int>>& missing) const;

  const DofSystem& sys_;
  const SimulationParams& params_;
  HessianPattern pattern_;
  ContactPullback pullback_;
  mutable GrowingPattern contact_pattern_;
  // Scratch reused by every assembly (saves large allocations per iteration).
  mutable std::vector<double> fixed_values_;
  mutable std::vector<std::vector<Vec<12>>> local_g_;  ///< per elastic body, per tet
  mutable std::vector<std::vector<Mat<12>>> local_h_;
  mutable std::vector<std::vector<Vec<18>>> shell_g_;  ///< per shell body, per triangle
  mutable std::vector<std::vector<Mat<18>>> shell_h_;
  mutable std::vector<std::pair<int, int>> missing_;
};

}  // namespace eipc
