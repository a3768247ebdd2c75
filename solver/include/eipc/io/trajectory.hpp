// In-memory form of a trajectory file (DESIGN §5). The HDF5 writer/reader
// (io/trajectory_file.hpp) and the certifier work on these types.
#pragma once

#include "eipc/common.hpp"

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

/// Statistics of the step that produced a frame (zeros for frame 0).
struct StepStats {
  int newton_iterations = 0;  ///< Newton directions (full Newton or chord steps)
  int line_search_steps = 0;
  double wall_seconds = 0.0;
  double min_distance = 0.0;  ///< smallest contact distance seen in the step (inf if none)
  int active_pairs = 0;       ///< contact pairs with d < dhat at the end of the step
  int factorizations = 0;     ///< Hessian assemblies and factorisations (run summary only; not stored)
};

/// Contact forces on body a from body b, summed over their contact pairs (newtons).
/// Ground contacts use b = -1.
struct BodyPairForce {
  int body_a = 0;
  int body_b = 0;
  Vec3 normal = Vec3::Zero();
  Vec3 friction = Vec3::Zero();
  int pairs = 0;
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
