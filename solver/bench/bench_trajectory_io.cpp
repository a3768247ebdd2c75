// Trajectory file throughput: appending frames (with a flush each) and reading
// single frames back, for a body of N vertices (arg) plus a small second body.
#include "eipc/io/trajectory_file.hpp"

#include <benchmark/benchmark.h>

#include <filesystem>
#include <unistd.h>

namespace {

eipc::TrajectoryHeader header(long n) {
  eipc::TrajectoryHeader h;
  h.scenario = "bench";
  h.dt = 0.01;
  h.bodies.resize(2);
  h.bodies[0].name = "big";
  h.bodies[0].rest = eipc::Positions::Random(n, 3);
  h.bodies[0].surface = eipc::Tris::Zero(n / 2, 3);
  h.bodies[1].name = "small";
  h.bodies[1].rest = eipc::Positions::Random(100, 3);
  return h;
}

eipc::Frame frame(const eipc::TrajectoryHeader& h, long step) {
  eipc::Frame f;
  f.step = step;
  f.time = step * h.dt;
  for (const auto& b : h.bodies) f.positions.push_back(b.rest);
  eipc::BodyPairForce p;
  p.body_a = 0;
  p.body_b = step % 2 ? 1 : -1;
  p.normal = eipc::Vec3(0, 0, 1);
  p.pairs = 1;
  f.pair_forces.push_back(p);
  return f;
}

std::string scratch(const char* tag) {
  return (std::filesystem::temp_directory_path() /
          ("eipc_bench_" + std::string(tag) + "_" + std::to_string(::getpid()) + ".h5"))
      .string();
}

void BM_TrajectoryAppend(benchmark::State& state) {
  const auto h = header(state.range(0));
  const std::string path = scratch("append");
  eipc::TrajectoryWriter w(path, h, {1, false});
  long step = 0;
  const eipc::Frame f = frame(h, 0);
  for (auto _ : state) {
    eipc::Frame g = f;
    g.step = step++;
    w.append(g);
  }
  w.finish(eipc::TrajectoryStatus::complete);
  state.SetBytesProcessed(state.iterations() * state.range(0) * 3 * 8);
  std::filesystem::remove(path);
}
BENCHMARK(BM_TrajectoryAppend)->Arg(1000)->Arg(100000)->Unit(benchmark::kMicrosecond);

void BM_TrajectoryReadFrame(benchmark::State& state) {
  const auto h = header(state.range(0));
  const std::string path = scratch("read");
  const long frames = 50;
  {
    eipc::TrajectoryWriter w(path, h, {10, false});
    for (long i = 0; i < frames; ++i) w.append(frame(h, i));
    w.finish(eipc::TrajectoryStatus::complete);
  }
  eipc::TrajectoryReader r(path);
  long i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(r.read_frame(i++ % frames));
  state.SetBytesProcessed(state.iterations() * state.range(0) * 3 * 8);
  std::filesystem::remove(path);
}
BENCHMARK(BM_TrajectoryReadFrame)->Arg(1000)->Arg(100000)->Unit(benchmark::kMicrosecond);

}  // namespace
