// Broad phase and CCD throughput on subdivided spheres (icospheres).
#include <benchmark/benchmark.h>

#include "eipc/broad_phase/broad_phase.hpp"
#include "eipc/ccd/additive_ccd.hpp"
#include "eipc/ccd/collision_free_step.hpp"

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <utility>
#include <vector>

using namespace eipc;

namespace {

/// Unit icosphere with `level` midpoint subdivisions (10 * 4^level + 2 vertices).
void icosphere(int level, std::vector<Vec3>& v, std::vector<std::array<int, 3>>& f) {
  const double p = (1.0 + std::sqrt(5.0)) / 2.0;
  v = {{-1, p, 0}, {1, p, 0}, {-1, -p, 0}, {1, -p, 0}, {0, -1, p}, {0, 1, p},
       {0, -1, -p}, {0, 1, -p}, {p, 0, -1}, {p, 0, 1}, {-p, 0, -1}, {-p, 0, 1}};
  for (auto& x : v) x.normalize();
  f = {{0, 11, 5}, {0, 5, 1}, {0, 1, 7}, {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
       {11, 10, 2}, {10, 7, 6}, {7, 1, 8}, {3, 9, 4}, {3, 4, 2}, {3, 2, 6}, {3, 6, 8},
       {3, 8, 9}, {4, 9, 5}, {2, 4, 11}, {6, 2, 10}, {8, 6, 7}, {9, 8, 1}};
  for (int l = 0; l < level; ++l) {
    std::map<std::pair<int, int>, int> mid;
    auto midpoint = [&](int a, int b) {
      auto key = std::minmax(a, b);
      auto it = mid.find(key);
      if (it != mid.end()) return it->second;
      v.push_back((v[a] + v[b]).normalized());
      return mid[key] = static_cast<int>(v.size()) - 1;
    };
    std::vector<std::array<int, 3>> g;
    for (auto [a, b, c] : f) {
      const int ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
      g.push_back({a, ab, ca});
      g.push_back({b, bc, ab});
      g.push_back({c, ca, bc});
      g.push_back({ab, bc, ca});
    }
    f = std::move(g);
  }
}

/// Two icospheres side by side (centres 2.1 apart, radius 1, gap 0.1).
CollisionMesh two_spheres(int level) {
  std::vector<Vec3> v;
  std::vector<std::array<int, 3>> f;
  icosphere(level, v, f);
  const int nv = static_cast<int>(v.size()), nf = static_cast<int>(f.size());
  CollisionMesh m;
  m.rest.resize(2 * nv, 3);
  m.faces.resize(2 * nf, 3);
  std::set<std::pair<int, int>> edges;
  for (int b = 0; b < 2; ++b) {
    for (int i = 0; i < nv; ++i) {
      m.rest.row(b * nv + i) = (v[i] + Vec3(2.1 * b, 0, 0)).transpose();
      m.vertex_body.push_back(b);
    }
    for (int i = 0; i < nf; ++i) {
      const auto [x, y, z] = f[i];
      m.faces.row(b * nf + i) << b * nv + x, b * nv + y, b * nv + z;
      for (auto [p, q] : {std::pair{x, y}, std::pair{y, z}, std::pair{z, x}})
        edges.insert({b * nv + std::min(p, q), b * nv + std::max(p, q)});
    }
  }
  m.edges.resize(static_cast<int>(edges.size()), 2);
  int e = 0;
  for (auto [p, q] : edges) m.edges.row(e++) << p, q;
  return m;
}

/// The spheres move toward each other by 0.2 (they would overlap) with a small random jitter.
Positions approach(const CollisionMesh& m) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> u(-1e-3, 1e-3);
  Positions x1 = m.rest;
  for (int i = 0; i < m.num_vertices(); ++i) {
    x1(i, 0) += m.vertex_body[i] == 0 ? 0.1 : -0.1;
    for (int k = 0; k < 3; ++k) x1(i, k) += u(rng);
  }
  return x1;
}

void BM_BroadPhaseBarrier(benchmark::State& state) {
  const CollisionMesh m = two_spheres(static_cast<int>(state.range(0)));
  std::size_t n = 0;
  for (auto _ : state) n = find_candidates(m, m.rest, m.rest, 1e-3).size();
  state.counters["vertices"] = m.num_vertices();
  state.counters["candidates"] = static_cast<double>(n);
  state.SetItemsProcessed(state.iterations() * m.num_vertices());
}
BENCHMARK(BM_BroadPhaseBarrier)->DenseRange(3, 6)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_BroadPhaseCcd(benchmark::State& state) {
  const CollisionMesh m = two_spheres(static_cast<int>(state.range(0)));
  const Positions x1 = approach(m);
  std::size_t n = 0;
  for (auto _ : state) n = find_candidates(m, m.rest, x1, 0.0).size();
  state.counters["vertices"] = m.num_vertices();
  state.counters["candidates"] = static_cast<double>(n);
  state.SetItemsProcessed(state.iterations() * m.num_vertices());
}
BENCHMARK(BM_BroadPhaseCcd)->DenseRange(3, 6)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_MaxCollisionFreeStep(benchmark::State& state) {
  const CollisionMesh m = two_spheres(static_cast<int>(state.range(0)));
  const Positions x1 = approach(m);
  double alpha = 0;
  for (auto _ : state) alpha = max_collision_free_step(m, m.rest, x1, -2.0, 0.1);
  state.counters["vertices"] = m.num_vertices();
  state.counters["alpha"] = alpha;
}
BENCHMARK(BM_MaxCollisionFreeStep)->DenseRange(3, 6)->Unit(benchmark::kMillisecond)->UseRealTime();

/// Narrow phase alone on the CCD candidates of the level-5 spheres.
void BM_NarrowPhase(benchmark::State& state) {
  const bool vf = state.range(0) == 0;
  const CollisionMesh m = two_spheres(5);
  const Positions x0 = m.rest, x1 = approach(m);
  const Candidates c = find_candidates(m, x0, x1, 0.0);
  auto at = [](const Positions& x, int v) -> Vec3 { return x.row(v).transpose(); };
  std::size_t queries = 0, hits = 0;
  for (auto _ : state) {
    double toi;
    if (vf) {
      for (const auto& pt : c.point_triangle) {
        const int v = pt.vertex, a = m.faces(pt.face, 0), b = m.faces(pt.face, 1), d = m.faces(pt.face, 2);
        hits += point_triangle_ccd(at(x0, v), at(x0, a), at(x0, b), at(x0, d), at(x1, v), at(x1, a), at(x1, b),
                                   at(x1, d), 0.0, 1.0, toi);
      }
      queries += c.point_triangle.size();
    } else {
      for (const auto& ee : c.edge_edge) {
        const int a0 = m.edges(ee.edge_a, 0), a1 = m.edges(ee.edge_a, 1);
        const int b0 = m.edges(ee.edge_b, 0), b1 = m.edges(ee.edge_b, 1);
        hits += edge_edge_ccd(at(x0, a0), at(x0, a1), at(x0, b0), at(x0, b1), at(x1, a0), at(x1, a1), at(x1, b0),
                              at(x1, b1), 0.0, 1.0, toi);
      }
      queries += c.edge_edge.size();
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(queries));
  state.counters["hit_fraction"] = queries ? double(hits) / double(queries) : 0.0;
}
BENCHMARK(BM_NarrowPhase)->Arg(0)->Arg(1)->ArgNames({"ee"})->Unit(benchmark::kMillisecond);

}  // namespace
