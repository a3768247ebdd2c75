// Certification throughput on a ~10k-triangle scene: two icospheres
// (5120 triangles each) 1e-3 apart. Reports frames per second of the exact
// per-frame check and of the continuous (motion) check. Then the continuous
// check by phase on the large frame pair (large_frames.hpp, 81,920 triangles):
// broad phase (swept primitive boxes), narrow phase (exact decisions), and the
// exact decision alone on the published CCD queries. BM_certify_dataset_frame:
// the static check of a 153,600-triangle frame of 120 spheres, 12 pairs of them
// intersecting (the frames solver/bench/make_frames.py writes, split into components).
// BM_certify_motion_dense: the motion check by phase on contact-dense frame pairs named
// in EIPC_DENSE_FRAMES (make_dense_frames.py, or published simulation frames).

#include "../tests/unit/certify/test_meshes.hpp"
#include "eipc/certify/exact_tests.hpp"
#include "eipc/certify/frame_check.hpp"
#include "eipc/certify/motion_check.hpp"
#include "eipc/certify/exact_ccd.hpp"
#include "eipc/certify/dataset_input.hpp"
#include "eipc/util/parallel.hpp"
#include "../tests/unit/ccd/published_queries.hpp"
#include "large_frames.hpp"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <sstream>

using namespace eipc;
using namespace eipc::certify;

namespace {

namespace test = eipc::certify::test;  // (eipc::test holds the published queries)

struct Scene {
  test::Surface a = test::sphere({0, 0, 0}, 0.05, 4);
  test::Surface b = test::sphere({0.1 + 1e-3, 0, 0}, 0.05, 4);
  test::Surface b_moved = test::translated(b, {-5e-4, 2e-4, 0});  // still 5e-4 apart
  std::vector<BodyState> frame(const test::Surface& second) const {
    return {{&a.x, &a.faces, true}, {&second.x, &second.faces, true}};
  }
};

void BM_certify_frame(benchmark::State& state) {
  const ThreadLimit limit(static_cast<int>(state.range(0)));
  const Scene s;
  const auto bodies = s.frame(s.b);
  std::size_t pairs = 0;
  for (auto _ : state) {
    const FrameCheck r = check_frame(bodies, -1.0);
    if (!r.ok()) state.SkipWithError("scene should be clean");
    pairs = r.candidate_pairs;
  }
  state.counters["triangles"] = static_cast<double>(s.a.faces.rows() + s.b.faces.rows());
  state.counters["candidate_pairs"] = static_cast<double>(pairs);
  state.counters["frames_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_certify_frame)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

/// 120 icospheres of 1,280 triangles on a grid 2.5 apart, radius 1; every 10th moved
/// 1.0 towards its neighbour (12 intersecting pairs), as make_frames.py's frame 1.
struct DatasetFrame {
  std::vector<test::Surface> spheres;
  DatasetFrame() {
    const test::Surface unit = test::sphere({0, 0, 0}, 1.0, 3);
    for (int s = 0; s < 120; ++s) {
      Vec3 c(2.5 * (s % 5), 2.5 * (s / 5 % 5), 2.5 * (s / 25));
      if (s % 10 == 1) c.x() -= 1.0;
      spheres.push_back(test::translated(unit, c));
    }
  }
  std::vector<BodyState> bodies() const {
    std::vector<BodyState> b;
    for (const auto& s : spheres) b.push_back({&s.x, &s.faces, true});
    return b;
  }
};

void BM_certify_dataset_frame(benchmark::State& state) {
  const ThreadLimit limit(static_cast<int>(state.range(0)));
  const DatasetFrame frame;
  const auto bodies = frame.bodies();
  std::size_t pairs = 0, hits = 0;
  for (auto _ : state) {
    const FrameCheck r = check_frame(bodies, std::nullopt);
    pairs = r.candidate_pairs;
    hits = r.triangle_pairs;
  }
  if (hits == 0) state.SkipWithError("the 12 sphere pairs should intersect");
  state.counters["triangles"] = 120.0 * frame.spheres[0].faces.rows();
  state.counters["candidate_pairs"] = static_cast<double>(pairs);
  state.counters["intersecting_pairs"] = static_cast<double>(hits);
}
BENCHMARK(BM_certify_dataset_frame)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_certify_motion(benchmark::State& state) {
  const ThreadLimit limit(static_cast<int>(state.range(0)));
  const Scene s;
  const auto from = s.frame(s.b), to = s.frame(s.b_moved);
  std::size_t prims = 0;
  for (auto _ : state) {
    const MotionCheck r = check_motion(from, to, -1.0);
    if (r.status() != MotionStatus::certified) state.SkipWithError("motion should certify");
    prims = r.vertex_face_candidates + r.edge_edge_candidates;
  }
  state.counters["primitive_pairs"] = static_cast<double>(prims);
  state.counters["motions_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_certify_motion)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

const bench::LargeFrames& large() {
  static const bench::LargeFrames f = bench::large_frames();
  return f;
}

std::vector<BodyState> states(const std::vector<test::Surface>& s) {
  std::vector<BodyState> b;
  for (const auto& x : s) b.push_back({&x.x, &x.faces, true});
  return b;
}

/// The whole motion check from `from` to `to` at `threads`; the phases' times as counters.
void motion_by_phase(benchmark::State& state, const std::vector<BodyState>& from, const std::vector<BodyState>& to,
                     int threads) {
  const ThreadLimit limit(threads);
  MotionCheck r;
  double broad = 0, narrow = 0, exact = 0;
  for (auto _ : state) {
    r = check_motion(from, to, std::nullopt);
    broad += r.broad_seconds;
    narrow += r.narrow_seconds;
    exact += r.exact_seconds;
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["broad_s"] = broad / n;
  state.counters["narrow_s"] = narrow / n;
  state.counters["exact_thread_s"] = exact / n;
  state.counters["vf_candidates"] = static_cast<double>(r.vertex_face_candidates);
  state.counters["ee_candidates"] = static_cast<double>(r.edge_edge_candidates);
  state.counters["exact_pairs"] = static_cast<double>(r.exact_pairs);
  state.counters["collisions"] = static_cast<double>(r.collisions);
}

/// The large generated pair (81,920 triangles, few contacts).
void BM_certify_motion_large(benchmark::State& state) {
  motion_by_phase(state, states(large().from), states(large().to), static_cast<int>(state.range(0)));
}
BENCHMARK(BM_certify_motion_large)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

/// Contact-dense frame pairs, as real data has them: one benchmark per directory of two
/// frames named in EIPC_DENSE_FRAMES (colon-separated; solver/bench/make_dense_frames.py
/// writes them, or published frames), BM_certify_motion_dense/<dir>/<threads>; none
/// without it (docs/certify.md, "Contact-dense benchmarks and ipc-toolkit").
const bool dense_registered = [] {
  const char* list = std::getenv("EIPC_DENSE_FRAMES");
  if (!list) return false;
  std::stringstream dirs(list);
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty()) continue;
    const auto input = std::make_shared<const DatasetInput>(read_dataset(dir));
    if (input->trajectory.frames.size() != 2) throw InputError(dir + ": expected two frames");
    const std::string name = std::filesystem::path(dir).filename().string();
    for (int threads : {1, 2})
      benchmark::RegisterBenchmark(("BM_certify_motion_dense/" + name + "/" + std::to_string(threads)).c_str(),
                                   [input, threads](benchmark::State& state) {
                                     std::array<std::vector<BodyState>, 2> frames;
                                     for (int k = 0; k < 2; ++k)
                                       for (std::size_t b = 0; b < input->trajectory.header.bodies.size(); ++b)
                                         frames[k].push_back({&input->trajectory.frames[k].positions[b],
                                                              &input->trajectory.header.bodies[b].surface, true});
                                     motion_by_phase(state, frames[0], frames[1], threads);
                                   })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
  }
  return true;
}();

/// Narrow phase alone: the exact decision of the 2,444 published queries (hard, near-degenerate cases).
void BM_exact_ccd_published_queries(benchmark::State& state) {
  const auto queries = eipc::test::load_published_queries();
  std::size_t exact = 0;
  for (auto _ : state) {
    exact = 0;
    for (const auto& q : queries) {
      const std::array<Vec3, 4> x0{q.x[0], q.x[1], q.x[2], q.x[3]}, x1{q.x[4], q.x[5], q.x[6], q.x[7]};
      const PairDecision d = q.type == "vf" ? decide_point_triangle(x0, x1) : decide_edge_edge(x0, x1);
      exact += d.exact_path;
    }
  }
  state.counters["queries"] = static_cast<double>(queries.size());
  state.counters["exact_pairs"] = static_cast<double>(exact);
}
BENCHMARK(BM_exact_ccd_published_queries)->Unit(benchmark::kMillisecond);

}  // namespace
