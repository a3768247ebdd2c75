// eipc scenes in MuJoCo 2.2 (rigid bodies, soft contact): the scene is composed as MJCF
// and stepped with mj_step. Mapping and settings, with their sources: docs/peers.md.
#pragma once

#include "peer_engine.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace eipc::peers {

struct MujocoSettings {
  std::string contact = "soft";   ///< "soft": MuJoCo's default solref/solimp; "stiff": timeconst 2 h, solimp 0.99-0.999
  /// How scripted bodies (kinematic, or elastic with prescribed vertices) move:
  /// "servo": dynamic body on x, y, z slide joints, each a PD servo tracking the keyframes;
  /// "weld": dynamic free body welded to a mocap target; "mocap": the mocap body itself
  /// (MuJoCo's modelling chapter: contact with it lacks the relative velocity);
  /// "auto": servo unless the motion rotates, then weld.
  std::string drive = "auto";
  std::vector<double> servo_kp = {430, 430, 1e4};  ///< servo stiffness per world axis [N/m]
  double servo_damping_ratio = 1.0;                ///< servo's kv = 2 ratio sqrt(kp m)
  /// Force limit of each servo's position actuator per world axis [N] (0: unlimited), as the
  /// menagerie's grippers cap their grip (MJCF actuator/forcerange); the velocity (damping) term
  /// is not limited, so the held force at rest is the position term's.
  std::vector<double> servo_force_limit = {0, 0, 0};
  double servo_armature = 0.0;                     ///< armature of the servos' slide joints [kg] (joint/armature)
  double gripper_mass = 0.2;                       ///< mass of a driven body under servo/weld [kg]
  std::vector<double> weld_solref = {0.02, 1.0};   ///< weld constraint (timeconst, dampratio)
  std::string cone = "elliptic";
  double impratio = 10;
  std::string solver = "Newton";
  std::string integrator = "implicit";
  double tolerance = 1e-10;      ///< main solver tolerance
  int iterations = 100;          ///< main solver iterations
  int noslip_iterations = 0;
  double margin = 0.0;           ///< geom margin [m]: contacts become active this far apart
  double max_substep = 0.0;       ///< longest MuJoCo step [s] (0: the scene's dt)
  double piece_size = 0.015;      ///< grid cell of the convex decomposition [m]
  /// MuJoCo 2.2.2's fixed buffers (`size/nconmax`, `size/njmax`): mjData holds njmax x njmax
  /// matrices and a stack of 5 (njmax + nv)^2 doubles, all allocated and zeroed at start, so
  /// their size is start-up time (9000: 2 s and 1.9 GB); the settings files size them per
  /// scene from the peaks a run reports (`engine_usage`).
  int nconmax = 1000;
  int njmax = 3000;
  std::optional<std::string> mjcf_out;  ///< also write the composed MJCF here
};

std::unique_ptr<PeerEngine> make_mujoco_engine(const Scene& scene, const MujocoSettings& settings);

}  // namespace eipc::peers
