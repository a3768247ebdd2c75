// Barrier and friction assembly on a few thousand contacts: one random triangle per cell of a
// grid (separated by a gap), every cross-body pair a candidate, dhat half a cell.
#include <benchmark/benchmark.h>

#include "eipc/testing/triplet_hessians.hpp"
#include "eipc/barrier/barrier_potential.hpp"
#include "eipc/friction/friction_potential.hpp"

#include <random>

using namespace eipc;

namespace {

struct Scene {
  CollisionMesh mesh;
  Positions x, x_next;
  Candidates candidates;
  ContactSet contacts;
  FrictionSet friction;
  double dhat = 0.1;
};

// Neighbouring cells only (the broad phase would give roughly this candidate set).
const Scene& scene() {
  static const Scene s = [] {
    Scene s;
    const int n = 10;
    const double cell = 0.2, gap = 0.01;
    std::mt19937 gen(7);
    std::uniform_real_distribution<double> u(0, cell - gap), small(-1e-3, 1e-3);
    const int count = n * n * n;
    s.x.resize(3 * count, 3);
    s.mesh.faces.resize(count, 3);
    s.mesh.edges.resize(3 * count, 2);
    for (int t = 0; t < count; ++t) {
      const Vec3 lo = cell * Vec3(t / (n * n), (t / n) % n, t % n) + Vec3::Constant(gap / 2);
      for (int v = 0; v < 3; ++v) {
        s.x.row(3 * t + v) = (lo + Vec3(u(gen), u(gen), u(gen))).transpose();
        s.mesh.vertex_body.push_back(t);
      }
      s.mesh.faces.row(t) << 3 * t, 3 * t + 1, 3 * t + 2;
      s.mesh.edges.row(3 * t) << 3 * t, 3 * t + 1;
      s.mesh.edges.row(3 * t + 1) << 3 * t + 1, 3 * t + 2;
      s.mesh.edges.row(3 * t + 2) << 3 * t, 3 * t + 2;
    }
    s.mesh.rest = s.x;
    auto near = [&](int a, int b) {
      const int da = std::abs(a / (n * n) - b / (n * n)), db = std::abs((a / n) % n - (b / n) % n),
                dc = std::abs(a % n - b % n);
      return a != b && da <= 1 && db <= 1 && dc <= 1;
    };
    for (int v = 0; v < 3 * count; ++v)
      for (int f = 0; f < count; ++f)
        if (near(v / 3, f)) s.candidates.point_triangle.push_back({v, f});
    for (int a = 0; a < 3 * count; ++a)
      for (int b = a + 1; b < 3 * count; ++b)
        if (near(a / 3, b / 3)) s.candidates.edge_edge.push_back({a, b});
    s.contacts = build_contact_set(s.mesh, s.x, s.candidates, s.dhat, 0.0);
    s.friction = build_friction_set(s.mesh, s.x, s.contacts, s.dhat, 1e4, 0.5, 1e-3, 0.01);
    s.x_next = s.x;
    for (Eigen::Index i = 0; i < s.x.size(); ++i) s.x_next.data()[i] += small(gen);
    return s;
  }();
  return s;
}

void BM_build_contact_set(benchmark::State& st) {
  const Scene& s = scene();
  for (auto _ : st) benchmark::DoNotOptimize(build_contact_set(s.mesh, s.x, s.candidates, s.dhat, 0.0));
  st.counters["candidates"] = double(s.candidates.size());
  st.counters["contacts"] = double(s.contacts.size());
}
void BM_barrier_energy(benchmark::State& st) {
  const Scene& s = scene();
  for (auto _ : st) benchmark::DoNotOptimize(barrier_potential(s.mesh, s.x, s.contacts, s.dhat));
  st.counters["contacts"] = double(s.contacts.size());
}
void BM_barrier_gradient(benchmark::State& st) {
  const Scene& s = scene();
  for (auto _ : st) benchmark::DoNotOptimize(barrier_potential_gradient(s.mesh, s.x, s.contacts, s.dhat));
  st.counters["contacts"] = double(s.contacts.size());
}
void BM_barrier_hessian_projected(benchmark::State& st) {
  const Scene& s = scene();
  for (auto _ : st) benchmark::DoNotOptimize(barrier_potential_hessian(s.mesh, s.x, s.contacts, s.dhat, true));
  st.counters["contacts"] = double(s.contacts.size());
}
void BM_build_friction_set(benchmark::State& st) {
  const Scene& s = scene();
  for (auto _ : st) benchmark::DoNotOptimize(build_friction_set(s.mesh, s.x, s.contacts, s.dhat, 1e4, 0.5, 1e-3, 0.01));
  st.counters["contacts"] = double(s.contacts.size());
}
void BM_friction_gradient(benchmark::State& st) {
  const Scene& s = scene();
  for (auto _ : st) benchmark::DoNotOptimize(friction_potential_gradient(s.x_next, s.x, s.friction));
  st.counters["contacts"] = double(s.friction.size());
}
void BM_friction_hessian_projected(benchmark::State& st) {
  const Scene& s = scene();
  for (auto _ : st) benchmark::DoNotOptimize(friction_potential_hessian(s.x_next, s.x, s.friction, true));
  st.counters["contacts"] = double(s.friction.size());
}

}  // namespace

BENCHMARK(BM_build_contact_set)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_barrier_energy)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_barrier_gradient)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_barrier_hessian_projected)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_build_friction_set)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_friction_gradient)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_friction_hessian_projected)->Unit(benchmark::kMillisecond);
