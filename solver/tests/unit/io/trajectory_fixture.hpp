// Shared test data for the trajectory file tests: a small synthetic trajectory
// (2 bodies, one with an embedding, 3 frames, pair forces) and a scratch directory.
#pragma once

#include "eipc/io/trajectory.hpp"
#include "eipc/io/trajectory_file.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <unistd.h>

namespace eipc::test {

/// A fresh directory under the system temp dir, removed on destruction.
struct ScratchDir {
  std::filesystem::path dir;
  explicit ScratchDir(const std::string& tag) {
    static int counter = 0;
    dir = std::filesystem::temp_directory_path() /
          ("eipc_" + tag + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  std::string file(const std::string& name) const { return (dir / name).string(); }
};

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

/// Body 0 "cube": 5 vertices, 2 tets, 6 surface triangles, embedded in one tet ("affine").
/// Body 1 "floor & <plate>": kinematic surface only (name exercises XML escaping).
inline TrajectoryHeader synthetic_header() {
  TrajectoryHeader h;
  h.scenario = "synthetic";
  h.scene_json = R"({"format": "eipc-scene", "version": 1, "name": "synthetic"})";
  h.solver_json = R"({"newton_tol": 1e-05})";
  h.contact_json = R"({"kappa": 10000.0, "dhat": 0.001})";
  h.dt = 0.01;
  h.duration = 0.02;
  h.ground_height = -0.25;
  h.code_version = "0.1.0-test";
  h.threads = 2;

  TrajectoryBody cube;
  cube.name = "cube";
  cube.embedding = "affine";
  cube.rest.resize(5, 3);
  cube.rest << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.3, 0.3, 0.3 + 1.0 / 3.0;
  cube.tets.resize(2, 4);
  cube.tets << 0, 1, 2, 3, 1, 2, 3, 4;
  cube.surface.resize(6, 3);
  cube.surface << 0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 4, 3, 2, 3, 4, 1, 2, 4;
  EmbeddingData e;
  e.vertices.resize(4, 3);
  e.vertices << -1, -1, -1, 3, -1, -1, -1, 3, -1, -1, -1, 3;
  e.tets.resize(1, 4);
  e.tets << 0, 1, 2, 3;
  e.vertex_tet = Eigen::VectorXi::Zero(5);
  e.weights.resize(5, 4);
  for (int i = 0; i < 5; ++i) {
    const double x = cube.rest(i, 0), y = cube.rest(i, 1), z = cube.rest(i, 2);
    e.weights.row(i) << 1 - (x + 1) / 4 - (y + 1) / 4 - (z + 1) / 4, (x + 1) / 4, (y + 1) / 4, (z + 1) / 4;
  }
  cube.embedding_data = e;

  TrajectoryBody floor;
  floor.name = "floor & <plate>";
  floor.kinematic = true;
  floor.rest.resize(4, 3);
  floor.rest << -2, -2, -0.1, 2, -2, -0.1, 2, 2, -0.1, -2, 2, -0.1;
  floor.surface.resize(2, 3);
  floor.surface << 0, 1, 2, 0, 2, 3;
  h.bodies = {cube, floor};
  return h;
}

/// Frame i of the synthetic run: the cube falls, touches the ground at frame 1 and the
/// floor body at frame 2 (a pair that first appears there).
inline Frame synthetic_frame(const TrajectoryHeader& h, int i) {
  Frame f;
  f.step = i;
  f.time = i * h.dt;
  Positions cube = h.bodies[0].rest;
  cube.col(2).array() -= 0.05 * i * i + 1e-3 * std::sqrt(2.0);
  Positions floor = h.bodies[1].rest;
  floor.col(0).array() += 0.1 * i;
  f.positions = {cube, floor};
  if (i == 0) {
    f.stats.min_distance = std::numeric_limits<double>::infinity();
    return f;
  }
  f.stats = {3 + i, 7 * i, 0.125 * i + 1.0 / 3.0, 1e-4 / i, 4 * i};
  BodyPairForce ground;
  ground.body_a = 0;
  ground.body_b = -1;
  ground.normal = Vec3(0.0, 0.0, 9.81 * i + 0.1);
  ground.friction = Vec3(-0.5 / i, 0.25, 0.0);
  ground.pairs = 3 * i;
  f.pair_forces.push_back(ground);
  if (i == 2) {
    BodyPairForce floor_pair;
    floor_pair.body_a = 0;
    floor_pair.body_b = 1;
    floor_pair.normal = Vec3(0.0, 1.0 / 7.0, 2.5);
    floor_pair.friction = Vec3(1e-300, 0.0, -4.0);
    floor_pair.pairs = 5;
    f.pair_forces.push_back(floor_pair);
  }
  return f;
}

inline void sort_pairs(Frame& f) {
  std::sort(f.pair_forces.begin(), f.pair_forces.end(), [](const BodyPairForce& a, const BodyPairForce& b) {
    return std::make_pair(a.body_a, a.body_b) < std::make_pair(b.body_a, b.body_b);
  });
}

/// A finished (complete) synthetic trajectory with `frames` frames at dir/name.
inline std::string write_complete(const ScratchDir& dir, const std::string& name, int frames = 3) {
  const std::string path = dir.file(name);
  const TrajectoryHeader h = synthetic_header();
  TrajectoryWriter w(path, h);
  for (int i = 0; i < frames; ++i) w.append(synthetic_frame(h, i));
  w.finish(TrajectoryStatus::complete);
  return path;
}

/// Message of the InputError that reading `path` throws ("" if it does not throw).
inline std::string read_error(const std::string& path) {
  try {
    read_trajectory(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace eipc::test
