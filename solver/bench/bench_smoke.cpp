#include <benchmark/benchmark.h>
static void BM_noop(benchmark::State& s) { for (auto _ : s) benchmark::DoNotOptimize(0); }
BENCHMARK(BM_noop);
