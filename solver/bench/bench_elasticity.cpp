// Elastic energy / gradient / Hessian assembly on the Drake teddy mesh
// (scenarios/assets/drake/teddy.vtk, 410 vertices, 1207 tets), linear corotated.
// The VTK file is read minimally here (legacy ASCII, tets only) because the
// mesh readers live in another part of the project.
#include "eipc/testing/reference_svd.hpp"
#include "eipc/elasticity/elastic_body.hpp"
#include "eipc/elasticity/polar_rotation_near.hpp"
#include "eipc/elasticity/rotation_variant_svd.hpp"
#include "eipc/elasticity/tet_kinematics.hpp"
#include "eipc/util/parallel.hpp"

#include <Eigen/Geometry>
#include <benchmark/benchmark.h>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct TetMesh {
  eipc::Positions vertices;
  eipc::Tets tets;
};

TetMesh read_vtk_tets(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  TetMesh m;
  std::vector<std::vector<int>> cells;
  std::string word;
  while (in >> word) {
    if (word == "POINTS") {
      int n;
      in >> n >> word;
      m.vertices.resize(n, 3);
      for (int i = 0; i < 3 * n; ++i) in >> m.vertices.data()[i];
    } else if (word == "CELLS") {
      int n, size;
      in >> n >> size;
      cells.resize(n);
      for (auto& c : cells) {
        int k;
        in >> k;
        c.resize(k);
        for (int& v : c) in >> v;
      }
    } else if (word == "CELL_TYPES") {
      int n;
      in >> n;
      std::vector<int> keep;
      for (int i = 0; i < n; ++i) {
        int type;
        in >> type;
        if (type == 10 && cells[i].size() == 4) keep.push_back(i);  // VTK_TETRA
      }
      m.tets.resize(static_cast<Eigen::Index>(keep.size()), 4);
      for (std::size_t t = 0; t < keep.size(); ++t)
        for (int a = 0; a < 4; ++a) m.tets(static_cast<Eigen::Index>(t), a) = cells[keep[t]][a];
    }
  }
  if (m.vertices.rows() == 0 || m.tets.rows() == 0) throw std::runtime_error("no tets in " + path);
  return m;
}

struct Fixture {
  TetMesh mesh = read_vtk_tets(std::string(EIPC_ASSETS) + "/drake/teddy.vtk");
  eipc::ElasticBody body{mesh.vertices, mesh.tets,
                         eipc::Material{eipc::ElasticModel::linear_corotated, 5e4, 0.45, 1000.0}};
  eipc::Positions x = deformed();

  eipc::Positions deformed() const {  // rotated, squashed, noisy: a generic Newton iterate
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> u(-2e-3, 2e-3);
    const eipc::Mat3 A = Eigen::AngleAxisd(0.4, eipc::Vec3(1, 2, 3).normalized()).toRotationMatrix() *
                         eipc::Vec3(1.1, 0.95, 0.8).asDiagonal();
    eipc::Positions y = mesh.vertices * A.transpose();
    for (Eigen::Index i = 0; i < y.size(); ++i) y.data()[i] += u(rng);
    return y;
  }
};

const Fixture& fixture() {
  static const Fixture f;
  return f;
}

void BM_elastic_energy(benchmark::State& state) {
  const auto& f = fixture();
  eipc::ThreadLimit limit(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(f.body.energy(f.x));
  state.counters["tets"] = f.body.num_tets();
}

void BM_elastic_gradient(benchmark::State& state) {
  const auto& f = fixture();
  eipc::ThreadLimit limit(static_cast<int>(state.range(0)));
  eipc::VecX g(3 * f.body.num_vertices());
  for (auto _ : state) {
    g.setZero();
    f.body.add_gradient(f.x, g, 0);
    benchmark::DoNotOptimize(g.data());
  }
}

void BM_elastic_hessian(benchmark::State& state) {
  const auto& f = fixture();
  eipc::ThreadLimit limit(static_cast<int>(state.range(0)));
  const bool project = state.range(1) != 0;
  std::vector<Eigen::Triplet<double>> trips;
  for (auto _ : state) {
    trips.clear();
    f.body.add_hessian_triplets(f.x, trips, 0, project);
    benchmark::DoNotOptimize(trips.data());
  }
}

/// One Newton-iteration's worth: energy + gradient + projected Hessian into a sparse matrix.
void BM_elastic_assembly(benchmark::State& state) {
  const auto& f = fixture();
  eipc::ThreadLimit limit(static_cast<int>(state.range(0)));
  const int n = 3 * f.body.num_vertices();
  eipc::VecX g(n);
  std::vector<Eigen::Triplet<double>> trips;
  Eigen::SparseMatrix<double> H(n, n);
  for (auto _ : state) {
    benchmark::DoNotOptimize(f.body.energy(f.x));
    g.setZero();
    f.body.add_gradient(f.x, g, 0);
    trips.clear();
    f.body.add_hessian_triplets(f.x, trips, 0, true);
    H.setFromTriplets(trips.begin(), trips.end());
    benchmark::DoNotOptimize(H.valuePtr());
  }
}

/// Per-tet deformation gradients of the teddy: 0 the generic iterate above,
/// 1 a rigid rotation plus 1e-7 noise (near rest: repeated singular values),
/// 2 entries uniform in [-1, 1] (a third of them inverted or badly stretched).
std::vector<eipc::Mat3> deformation_gradients(int kind) {
  const auto& f = fixture();
  std::vector<eipc::Mat3> Fs;
  std::mt19937 rng(7);
  eipc::Positions y = f.x;
  if (kind == 1) {
    std::uniform_real_distribution<double> u(-1e-7, 1e-7);
    y = f.mesh.vertices * Eigen::AngleAxisd(1.0, eipc::Vec3(3, -1, 2).normalized()).toRotationMatrix().transpose();
    for (Eigen::Index i = 0; i < y.size(); ++i) y.data()[i] += u(rng);
  }
  for (int t = 0; t < f.mesh.tets.rows(); ++t) {
    const eipc::Mat3 Dm_inv = eipc::rest_shape_inverse(f.mesh.vertices, f.mesh.tets, t);
    Fs.push_back(eipc::deformation_gradient(y, f.mesh.tets, t, Dm_inv));
  }
  if (kind == 2) {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (auto& F : Fs)
      for (int i = 0; i < 9; ++i) F(i) = u(rng);
  }
  return Fs;
}

/// ns per 3x3 rotation-variant SVD: range(0) 0 = Eigen JacobiSVD (the old
/// path, rotation_variant_svd_reference), 1 = one-sided Jacobi, 2 = one-sided
/// Jacobi started from the V of F + 1e-3 |F| noise (a Newton iterate's last
/// SVD, as RotationMemo does), 3 = the rotation alone, polar_rotation_near from
/// that nearby matrix's U V^T (RotationMemo's energy and stress; where it
/// declines, on inverted F, nothing else is timed); range(1) = kind.
void BM_svd3(benchmark::State& state) {
  const std::vector<eipc::Mat3> Fs = deformation_gradients(static_cast<int>(state.range(1)));
  std::vector<eipc::Mat3> guesses, rotation_guesses;
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> noise(-1e-3, 1e-3);
  for (const eipc::Mat3& F : Fs) {
    const eipc::RotationVariantSvd near =
        eipc::rotation_variant_svd(F + F.norm() * eipc::Mat3::NullaryExpr([&] { return noise(rng); }));
    guesses.push_back(near.V);
    rotation_guesses.push_back(near.U * near.V.transpose());
  }
  const int method = static_cast<int>(state.range(0));
  for (auto _ : state)
    for (std::size_t i = 0; i < Fs.size(); ++i) {
      if (method == 3) {
        eipc::Mat3 R;
        benchmark::DoNotOptimize(eipc::polar_rotation_near(Fs[i], rotation_guesses[i], R));
        benchmark::DoNotOptimize(R);
        continue;
      }
      eipc::RotationVariantSvd s = method == 0   ? eipc::rotation_variant_svd_reference(Fs[i])
                                   : method == 1 ? eipc::rotation_variant_svd(Fs[i])
                                                 : eipc::rotation_variant_svd(Fs[i], guesses[i]);
      benchmark::DoNotOptimize(s);
    }
  state.counters["per_svd"] = benchmark::Counter(static_cast<double>(Fs.size()),
                                                 benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

}  // namespace

BENCHMARK(BM_svd3)->ArgNames({"method", "kind"})->ArgsProduct({{0, 1, 2, 3}, {0, 1, 2}})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_elastic_energy)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_elastic_gradient)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_elastic_hessian)->Args({1, 0})->Args({1, 1})->Args({2, 1})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_elastic_assembly)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond);
