// Scene files (docs/scene-format.md): JSON, `format: "eipc-scene", version: 1`.
#pragma once

#include "eipc/dynamics/body.hpp"
#include "eipc/dynamics/params.hpp"
#include "eipc/embedding/embedded_body.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace eipc {

/// Command-line adjustments applied before validation.
struct SceneOverrides {
  std::optional<double> dt;
  std::optional<double> duration;
  std::optional<std::string> embedding;   ///< switch every body that has this embedding
  std::vector<std::string> set;           ///< "key.path=value": bodies[0].material.youngs, bodies.0..., bodies.teddy...
};

struct Scene {
  std::string path;
  std::string name;
  nlohmann::json json;       ///< the scene as run (overrides applied)
  double duration = 1.0;
  long steps = 1;            ///< duration / dt (checked to be a whole number of steps)
  double output_every = 0.0; ///< store a frame every this many seconds (0: every step)
  long output_stride = 1;    ///< store a frame every this many steps (and the last step)
  SimulationParams params;
  std::vector<Body> bodies;
  std::vector<EmbeddingReport> embedding_reports;  ///< per body (all zero for full-space bodies)
  std::vector<std::string> notes;  ///< what loading did that the user should hear of (a surface tetrahedralized)
};

/// Loads and validates a scene; every problem is an InputError naming the file and field.
Scene load_scene(const std::string& path, const SceneOverrides& overrides = {});
/// The same for a scene document in memory: `path` names it in messages and its
/// folder is where relative mesh paths start.
Scene scene_from_json(nlohmann::json doc, const std::string& path, const SceneOverrides& overrides = {});

/// Applies one "key.path=value" override to a JSON document (value parsed as JSON, else a string).
/// Array elements are chosen by index (`bodies[0]` or `bodies.0`) or by their "name" (`bodies.teddy`).
void apply_override(nlohmann::json& doc, const std::string& assignment);

}  // namespace eipc
