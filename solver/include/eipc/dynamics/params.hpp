// Numerical parameters of a simulation (docs/design.md §3, §4).
#pragma once

#include "eipc/common.hpp"

#include <optional>

namespace eipc {

struct ContactParams {
  double kappa = 1e4;   ///< barrier stiffness (kg/s^2)
  double dhat = 1e-3;   ///< barrier activation distance (m)
  double epsv = 1e-3;   ///< friction static/dynamic transition speed (m/s)
  double friction = 0;  ///< Coulomb coefficient mu
  /// Friction rounds per step (IPC's friction iterations): after a solve the
  /// lagged normal forces, tangent bases and friction contacts are rebuilt from
  /// the solution and the step is solved again, until the normal forces change
  /// by at most friction_tol (relative to the largest) or after this many
  /// solves. 1: lagged once from the start of the step (the paper).
  int friction_max_rounds = 4;
  double friction_tol = 1e-2;
};

/// Which matrix a Newton direction solves with.
enum class NewtonMatrix {
  /// The exact Hessian, projected per element and per contact (projected
  /// Newton) only when the exact one is not positive definite.
  exact_if_definite,
  /// Always the projected one.
  projected,
  /// The exact Hessian; where it is not positive definite, the exact one plus
  /// mu times the lumped mass (Levenberg-Marquardt), mu raised tenfold from a
  /// tenth of the last one until it factorises. Keeps the exact curvature that
  /// the per-element projection discards, where that makes projected Newton
  /// creep (a shell's membrane in compression). The stopping test is never
  /// taken on a shifted direction: there the projected one decides.
  shifted,
};

struct SolverParams {
  double newton_tol = 1e-5;    ///< max full-space vertex step / h (m/s) to stop Newton
  int max_newton_iters = 200;  ///< per time step (and per augmented-Lagrangian round)
  /// CCD keeps this fraction of the current distance as a minimum separation so
  /// a line search never reaches distance zero (IPC uses 0.1-0.2).
  double ccd_separation_ratio = 0.1;
  int max_al_rounds = 30;      ///< augmented-Lagrangian rounds for blocked prescribed motion
  /// Newton's matrix (docs/design.md §3, docs/robustness.md).
  NewtonMatrix newton_matrix = NewtonMatrix::exact_if_definite;
  /// false: no pair is left out for lying in a trusted affine patch or convex
  /// region (every pair tested, as in full space). The same solutions; there
  /// to measure what the patches save (docs/embedding.md, docs/performance.md).
  bool affine_patches = true;
};

struct SimulationParams {
  double dt = 0.01;
  Vec3 gravity = Vec3(0, 0, -9.81);
  std::optional<double> ground_height;
  ContactParams contact;
  SolverParams solver;
};

}  // namespace eipc
