// eipc scenes in Bullet 3.24's deformable world (btDeformableMultiBodyDynamicsWorld,
// double precision). Mapping and settings: docs/peers.md.
#pragma once

#include "peer_engine.hpp"

#include <memory>
#include <optional>
#include <string>

namespace eipc::peers {

struct BulletSettings {
  double margin = 5e-4;        ///< collision margin of every soft and rigid shape [m]
  double sdf_voxel = 2e-3;     ///< voxel of the sparse signed-distance field for node-rigid contact [m]
  int iterations = 100;        ///< contact solver iterations per step
  int krylov_iterations = 30;   ///< iterations of the velocity solve (Bullet's default: 300; see docs/peers.md)
  int newton_iterations = 1;     ///< Newton iterations of an implicit step (Bullet's default)
  double krylov_tolerance = 1e-8;  ///< its absolute residual tolerance (Bullet's default)
  double erp = 0.2;            ///< deformable contact error reduction (fraction of the penetration removed per step)
  double cfm = 0.01;           ///< deformable contact constraint force mixing
  double max_substep = 0;      ///< longest Bullet step [s] (0: cfl x the explicit stability limit); scene steps are split equally
  double cfl = 0.5;            ///< fraction of the explicit stability limit used when max_substep is 0
  bool implicit = false;       ///< Bullet's implicit Euler for the elastic forces
  /// Contact by projection (setUseProjection) rather than Lagrange multipliers; unset:
  /// on exactly when implicit, as every implicit demo of Bullet's sets it (docs/peers.md).
  std::optional<bool> use_projection;
  /// Soft faces against rigid bodies (SDF_RDF) besides soft nodes (SDF_RDN); unset: on
  /// exactly when explicit. Every implicit demo of Bullet's leaves it off, and with implicit
  /// integration it pins the nodes of every face touching a rigid body (docs/peers.md).
  std::optional<bool> face_contact;
  bool line_search = false;    ///< Newton line search in the implicit solve
  /// Elastic force: "auto" (linear_corotated bodies: btDeformableLinearElasticityForce,
  /// neo_hookean: btDeformableNeoHookeanForce with moduli matched at small strain),
  /// "linear" or "neohookean" for every soft body.
  std::string elastic = "auto";
  double repulsion_stiffness = 0.5;  ///< soft-soft repulsion stiffness [N/m] (btSoftBody's default 0.5)
  bool rigid_fingers = false;  ///< elastic bodies with prescribed vertices as kinematic rigid bodies (rigid finger pads)
  bool self_collision = false; ///< soft-body self contact
  /// Scripted rigid bodies (kinematic ones with a motion; rigid finger pads) as dynamic bodies
  /// (gripper_mass, weight compensated, not turning), each driven by a PD servo per world axis
  /// toward its target, as MuJoCo's servo drive and the force-limited motors of Bullet's grasp
  /// demo do; false: kinematic bodies.
  bool servo_pads = false;
  std::vector<double> servo_kp = {430, 430, 1e4};  ///< servo stiffness per world axis [N/m]; damping critical
  /// Limit of each servo's position term per world axis [N] (0: unlimited); the damping term is
  /// not limited (as MuJoCo's position actuator's forcerange), so the held force at rest is the cap.
  std::vector<double> servo_force_limit = {0, 0, 0};
  double gripper_mass = 0.2;  ///< mass of a servo-driven pad [kg]
  /// A cloth's bending springs (generateBendingConstraints(2)) [N/m]; negative: Bullet's
  /// default, the cloth's edge-spring stiffness (E t).
  double cloth_bending_stiffness = -1;
  double piece_size = 0.015;   ///< grid cell of the convex decomposition of rigid shapes [m]
};

std::unique_ptr<PeerEngine> make_bullet_engine(const Scene& scene, const BulletSettings& settings);

}  // namespace eipc::peers
