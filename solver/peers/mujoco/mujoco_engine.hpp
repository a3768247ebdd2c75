// eipc scenes in MuJoCo 2.2 (rigid bodies, soft contact): the scene is composed as MJCF
// and stepped with mj_step. Mapping and settings: docs/peers.md.
#pragma once

#include "peer_engine.hpp"

#include <memory>
#include <optional>
#include <string>

namespace eipc::peers {

struct MujocoSettings {
  std::string contact = "soft";   ///< "soft": MuJoCo's default solref/solimp; "stiff": timeconst 2 h, solimp 0.99-0.999
  double max_substep = 0.0;       ///< longest MuJoCo step [s] (0: the scene's dt)
  double piece_size = 0.015;      ///< grid cell of the convex decomposition [m]
  std::optional<std::string> mjcf_out;  ///< also write the composed MJCF here
};

std::unique_ptr<PeerEngine> make_mujoco_engine(const Scene& scene, const MujocoSettings& settings);

}  // namespace eipc::peers
