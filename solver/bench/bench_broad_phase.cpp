// The contact broad phase on a fine surface: FinRay's finger (5,032 surface
// triangles, features ~1 mm, dhat = 0.1 mm), its pairs with itself at the
// inflations a cache rebuild (dhat + 2 * 0.4 mm skin) and a one-off sweep use,
// and the pairs between two fingers far apart (nothing to find).
#include "eipc/broad_phase/broad_phase.hpp"
#include "eipc/mesh/read_mesh.hpp"
#include "eipc/mesh/surface.hpp"
#include "eipc/util/parallel.hpp"

#include <benchmark/benchmark.h>

using namespace eipc;

namespace {

constexpr double kDhat = 1e-4;

/// Two copies of the finger's surface, the second `apart` metres along x.
const CollisionMesh& two_fingers() {
  static const CollisionMesh m = [] {
    const SurfaceMesh s = extract_surface(read_tet_mesh(std::string(EIPC_ASSETS) + "/generated/finray.msh"));
    const int nv = int(s.vertices.rows()), nf = int(s.faces.rows());
    const Edges edges = unique_edges(s.faces);
    const int ne = int(edges.rows());
    CollisionMesh m;
    m.rest.resize(2 * nv, 3);
    m.faces.resize(2 * nf, 3);
    m.edges.resize(2 * ne, 2);
    for (int b = 0; b < 2; ++b) {
      m.rest.middleRows(b * nv, nv) = s.vertices;
      m.rest.middleRows(b * nv, nv).col(0).array() += 0.05 * b;
      m.faces.middleRows(b * nf, nf) = s.faces.array() + b * nv;
      m.edges.middleRows(b * ne, ne) = edges.array() + b * nv;
      m.vertex_body.insert(m.vertex_body.end(), std::size_t(nv), b);
    }
    return m;
  }();
  return m;
}

// The timed calls, apart (for callgrind --toggle-collect='*timed_*').
[[gnu::noinline]] std::size_t timed_within(const CollisionMesh& m, double inflation, BroadPhaseTrees& trees) {
  return find_candidates_within_body(m, m.rest, m.rest, inflation, 0, &trees).size();
}
[[gnu::noinline]] std::size_t timed_between(const CollisionMesh& m, BroadPhaseTrees& trees) {
  return find_candidates_between_bodies(m, m.rest, m.rest, kDhat, &trees).size();
}

void BM_WithinBody(benchmark::State& state) {
  const CollisionMesh& m = two_fingers();
  const double inflation = double(state.range(0)) * kDhat;
  const ThreadLimit one(1);  // the kernel's own cost, not the machine's load
  BroadPhaseTrees trees;
  std::size_t n = find_candidates_within_body(m, m.rest, m.rest, inflation, 0, &trees).size();  // trees built: refit below
  for (auto _ : state) n = timed_within(m, inflation, trees);
  state.counters["candidates"] = double(n);
}
BENCHMARK(BM_WithinBody)->Arg(1)->Arg(5)->Arg(9)->ArgNames({"dhats"})->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_BetweenBodies(benchmark::State& state) {
  const CollisionMesh& m = two_fingers();
  const ThreadLimit one(1);
  BroadPhaseTrees trees;
  std::size_t n = find_candidates_between_bodies(m, m.rest, m.rest, kDhat, &trees).size();
  for (auto _ : state) n = timed_between(m, trees);
  state.counters["candidates"] = double(n);
}
BENCHMARK(BM_BetweenBodies)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
