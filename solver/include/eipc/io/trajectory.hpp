// In-memory form of a trajectory file (docs/trajectory-format.md). The HDF5 writer/reader
// (io/trajectory_file.hpp) and the certifier work on these types.
#pragma once

#include "eipc/common.hpp"
#include "eipc/dynamics/step_stats.hpp"

#include <optional>
#include <string>
#include <vector>

namespace eipc {

/// Barycentric embedding of a body's full-resolution vertices in a coarse tet mesh.
struct EmbeddingData {
  Positions vertices;                               ///< embedding mesh rest vertices
  Tets tets;                                        ///< embedding mesh tets
  Eigen::VectorXi vertex_tet;                       ///< per full-resolution vertex: its embedding tet
  Eigen::Matrix<double, Eigen::Dynamic, 4, Eigen::RowMajor> weights;  ///< barycentric weights
};

struct TrajectoryBody {
  std::string name;
  std::string embedding = "full";  ///< "full", "affine" or a named embedding
  bool kinematic = false;          ///< follows scripted motion (or static)
  Positions rest;                  ///< full-resolution rest vertices
  Tris surface;                    ///< outward-oriented surface triangles
  Tets tets;                       ///< empty for surface-only (kinematic/static) bodies
  std::optional<EmbeddingData> embedding_data;  ///< set where the body is reduced
};

struct TrajectoryHeader {
  std::string scenario;
  std::string scene_json;     ///< the scene as run (after --set overrides), JSON text
  std::string solver_json;    ///< solver parameters, JSON text
  std::string contact_json;   ///< contact parameters, JSON text
  double dt = 0.0;
  double duration = 0.0;
  std::optional<double> ground_height;  ///< analytic ground plane z = height, if any
  std::string code_version;
  int threads = 1;
  std::vector<TrajectoryBody> bodies;
};

struct Frame {
  double time = 0.0;
  long step = 0;                      ///< step index: time = step * dt
  std::vector<Positions> positions;   ///< per body, full-resolution vertices
  StepStats stats;
  std::vector<BodyPairForce> pair_forces;  ///< one entry per body pair in contact (a < b; b = -1 for the ground)
};

enum class TrajectoryStatus { complete, incomplete };

struct Trajectory {
  TrajectoryHeader header;
  std::vector<Frame> frames;
  TrajectoryStatus status = TrajectoryStatus::complete;
  std::string status_reason;  ///< why a trajectory is incomplete
};

}  // namespace eipc
