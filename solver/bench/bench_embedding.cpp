// The collision Jacobian of embedded and full-space bodies, through the same
// functions the solver calls: x = J q (CollisionMap::positions), J^T g
// (CollisionMap::pull_back, contact gradient) and J^T H J (ContactPullback,
// contact by contact, then the sparse sum as IncrementalPotential does it). Bodies: the teddy (0.15 scale; full, medium 174-node and low
// 36-node embeddings) and the 5k-vertex sphere (full, ~35-node lattice).
// J^T H J is measured with the barrier Hessian of the body resting on the
// ground ("ground") and with a 9x9 block on every surface triangle, as if the
// whole surface were in contact ("surface").
#include "eipc/barrier/barrier_potential.hpp"
#include "eipc/broad_phase/broad_phase.hpp"
#include "eipc/embedding/contact_pullback.hpp"
#include "eipc/dynamics/incremental_potential.hpp"
#include "eipc/embedding/embedded_body.hpp"
#include "eipc/embedding/lattice_embedding.hpp"
#include "eipc/mesh/read_mesh.hpp"
#include "eipc/mesh/surface.hpp"
#include "eipc/mesh/transform.hpp"

#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <random>
#include <string>

using namespace eipc;

namespace {

struct Model {
  std::string name, mesh, embedding;  ///< embedding: "" (full), "lattice35", or a mesh path
  double scale;
  Vec3 rotation_deg;
};

const Model kModels[] = {
    {"teddy_full", "/drake/teddy.vtk", "", 0.15, Vec3(90, 0, 0)},
    {"teddy_medium", "/drake/teddy.vtk", "/embeddings/teddy_medium.msh", 0.15, Vec3(90, 0, 0)},
    {"teddy_low", "/drake/teddy.vtk", "/embeddings/teddy_low.msh", 0.15, Vec3(90, 0, 0)},
    {"sphere5k_full", "/generated/sphere_5k.msh", "", 1.0, Vec3::Zero()},
    {"sphere5k_lattice35", "/generated/sphere_5k.msh", "lattice35", 1.0, Vec3::Zero()},
};
constexpr int kNumModels = sizeof(kModels) / sizeof(kModels[0]);

/// A body resting 0.5 mm above the ground (z = 0), with its contact set and Hessians.
struct Fixture {
  /// A contact's local Hessian block on its collision vertices.
  struct Block {
    std::array<int, 4> vertices{};
    int count = 0;
    Mat<12> local;
  };
  std::unique_ptr<DofSystem> sys;
  std::unique_ptr<ContactPullback> pullback;
  Positions q;
  VecX collision_gradient;
  std::vector<Block> ground_blocks, surface_blocks;
};

Positions placed(Positions x, const Model& m) {
  Transform t;
  t.scale = m.scale;
  t.rotation_deg = m.rotation_deg;
  return transformed(x, t, Vec3::Zero());
}

Fixture make_fixture(const Model& m) {
  TetMesh mesh = read_tet_mesh(EIPC_ASSETS + m.mesh);
  mesh.vertices = placed(mesh.vertices, m);
  const double lift = 5e-4 - mesh.vertices.col(2).minCoeff();
  mesh.vertices.col(2).array() += lift;
  Material mat;
  mat.model = ElasticModel::linear_corotated;
  mat.youngs = 5e4;
  mat.poisson = 0.45;
  mat.density = 1000;
  Body body = make_full_space_body(m.name, mesh.vertices, mesh.tets, boundary_faces(mesh.tets), mat);
  if (m.embedding == "lattice35") {
    body = embed_body(body, lattice_embedding(body.fine_rest, 35), "lattice35", m.name);
  } else if (!m.embedding.empty()) {
    TetMesh emb = read_tet_mesh(EIPC_ASSETS + m.embedding);
    emb.vertices = placed(emb.vertices, m);
    emb.vertices.col(2).array() += lift;
    body = embed_body(body, emb, "embedded", m.embedding);
  }
  Fixture f;
  f.sys = std::make_unique<DofSystem>(std::vector<Body>{body});
  f.q = f.sys->rest_nodes();
  const CollisionMesh& cm = f.sys->collision().mesh();
  const Positions x = f.sys->collision().positions(f.q);
  SimulationParams p;
  p.ground_height = 0.0;
  const IncrementalPotential potential(*f.sys, p);
  const ContactSet contacts = potential.contacts(f.q, find_candidates(cm, x, x, p.contact.dhat));
  f.collision_gradient = barrier_potential_gradient(cm, x, contacts, p.contact.dhat);
  const std::vector<Mat<12>> ground = barrier_potential_local_hessians(x, contacts, p.contact.dhat, true);
  for (std::size_t k = 0; k < ground.size(); ++k)
    f.ground_blocks.push_back({contacts.contacts[k].vertices, contacts.contacts[k].num_vertices(), ground[k]});
  // Every triangle in contact: a random symmetric 9x9 block on its three vertices.
  std::mt19937 gen(3);
  std::uniform_real_distribution<double> u(-1, 1);
  for (Eigen::Index t = 0; t < cm.faces.rows(); ++t) {
    Eigen::Matrix<double, 9, 9> a;
    for (int i = 0; i < 81; ++i) a.data()[i] = u(gen);
    Fixture::Block b;
    b.vertices = {cm.faces(t, 0), cm.faces(t, 1), cm.faces(t, 2), -1};
    b.count = 3;
    b.local.setZero();
    b.local.topLeftCorner<9, 9>() = a * a.transpose();
    f.surface_blocks.push_back(b);
  }
  f.pullback = std::make_unique<ContactPullback>(f.sys->collision());
  return f;
}

const Fixture& fixture(int model) {
  static std::map<int, Fixture> cache;
  auto it = cache.find(model);
  if (it == cache.end()) it = cache.emplace(model, make_fixture(kModels[model])).first;
  return it->second;
}

void describe(benchmark::State& state, const Fixture& f, const Model& m) {
  state.SetLabel(m.name);
  state.counters["dofs"] = double(f.sys->num_dofs());
  state.counters["collision_vertices"] = double(f.sys->collision().mesh().num_vertices());
  state.counters["J_nonzeros"] = double(f.sys->collision().jacobian().nonZeros());
}

void BM_ApplyJ(benchmark::State& state) {
  const Fixture& f = fixture(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(f.sys->collision().positions(f.q));
  describe(state, f, kModels[state.range(0)]);
}

void BM_ApplyJT(benchmark::State& state) {
  const Fixture& f = fixture(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(f.sys->collision().pull_back(f.collision_gradient));
  describe(state, f, kModels[state.range(0)]);
}

/// J^T H J of the blocks, as the solver assembles it: pulled back block by block, then summed.
SparseMatrix pulled_back(const Fixture& f, const std::vector<Fixture::Block>& blocks) {
  Triplets t;
  for (const Fixture::Block& b : blocks) f.pullback->append(b.vertices, b.count, b.local, 1.0, t);
  SparseMatrix H(f.sys->num_dofs(), f.sys->num_dofs());
  H.setFromTriplets(t.begin(), t.end());
  return H;
}

void BM_JTHJ_ground(benchmark::State& state) {
  const Fixture& f = fixture(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(pulled_back(f, f.ground_blocks));
  describe(state, f, kModels[state.range(0)]);
  state.counters["contacts"] = double(f.ground_blocks.size());
}

void BM_JTHJ_surface(benchmark::State& state) {
  const Fixture& f = fixture(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(pulled_back(f, f.surface_blocks));
  describe(state, f, kModels[state.range(0)]);
  state.counters["blocks"] = double(f.surface_blocks.size());
}

BENCHMARK(BM_ApplyJ)->DenseRange(0, kNumModels - 1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ApplyJT)->DenseRange(0, kNumModels - 1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_JTHJ_ground)->DenseRange(0, kNumModels - 1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_JTHJ_surface)->DenseRange(0, kNumModels - 1)->Unit(benchmark::kMicrosecond);

}  // namespace
