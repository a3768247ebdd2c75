// A peer simulator (Bullet, MuJoCo) driven on an eipc scene: the interface the shared
// run loop (peer_run.hpp) needs. Each engine maps the scene's bodies to its own models
// and reports that mapping; docs/peers.md tabulates it.
#pragma once

#include "eipc/io/trajectory.hpp"
#include "eipc/scene/scene.hpp"

#include <nlohmann/json.hpp>

#include <limits>
#include <string>
#include <vector>

namespace eipc::peers {

class PeerEngine {
public:
  virtual ~PeerEngine() = default;
  /// Short engine name ("bullet", "mujoco"): the trajectory's `engine` attribute.
  virtual std::string name() const = 0;
  /// Engine library and version, e.g. "Bullet 3.24 (double precision)".
  virtual std::string version() const = 0;
  /// The engine's settings as run (time stepping, contact, solver iterations).
  virtual nlohmann::json parameters() const = 0;
  /// One entry per scene body: {"body", "eipc_model", "peer_model", "parameters"}.
  virtual nlohmann::json mapping() const = 0;

  /// Advances one time step dt. Throws SolverFailure when the engine's state is no
  /// longer usable (non-finite or exploded positions).
  virtual void step() = 0;
  /// Full-resolution vertex positions of every body, in the scene's vertex order.
  virtual std::vector<Positions> fine_positions() const = 0;
  /// Contact forces of the last step per body pair (a < b, b = -1 for the ground),
  /// as far as the engine exposes them.
  virtual std::vector<BodyPairForce> contact_forces() const = 0;
  /// Inner solver iterations of the last step (0 if the engine does not report them);
  /// stored in the frames' newton_iterations column.
  virtual int last_iterations() const { return 0; }
  /// The engine's own least signed distance between contacting shapes after the last
  /// step (negative: penetration), stored in the frames' min_distance column; NaN when
  /// the engine does not measure one.
  virtual double min_distance() const { return std::numeric_limits<double>::quiet_NaN(); }
  /// How much of the engine's fixed-size buffers the run has used so far (peak against
  /// capacity), for sizing them; in the run's JSON summary as `engine_usage`. Empty when
  /// the engine allocates as it goes.
  virtual nlohmann::json usage() const { return nlohmann::json::object(); }
};

}  // namespace eipc::peers
