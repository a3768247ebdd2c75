// Thread control and the parallel loops of the solver. Results never depend on
// the thread count: loops write per-item results that are then combined in a
// fixed order.
//
// Small loops run serially: a TBB parallel_for costs a few microseconds of
// scheduling (and wakes a sleeping worker), which is more than the whole work
// of a loop over a few hundred cheap items. Each call site passes a grain: the
// number of its items worth about kTargetChunkMicroseconds of work. A loop with
// no more items than its grain, or any loop when only one thread is allowed,
// runs inline on the calling thread with no TBB involvement at all.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

namespace eipc {

/// Limits TBB to `threads` worker threads for the lifetime of the object (0 = all cores).
class ThreadLimit {
public:
  explicit ThreadLimit(int threads);
  ~ThreadLimit();
  ThreadLimit(const ThreadLimit&) = delete;
  ThreadLimit& operator=(const ThreadLimit&) = delete;
  int threads() const { return threads_; }

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int threads_;
  int previous_;
};

/// Threads the parallel loops may use: the innermost live ThreadLimit, else all cores.
int max_threads();

/// Work per chunk the grains aim at: well above TBB's per-task cost (~1 us).
constexpr double kTargetChunkMicroseconds = 20.0;

/// Grain for items costing about `item_microseconds` each (at least 1).
constexpr std::size_t grain_for(double item_microseconds) {
  const double g = kTargetChunkMicroseconds / item_microseconds;
  return g < 1.0 ? 1 : static_cast<std::size_t>(g);
}

/// Test hook: while alive, every loop with more than one item runs through TBB
/// (grain 1), so determinism tests exercise the parallel paths on small inputs.
class ForceParallel {
public:
  ForceParallel();
  ~ForceParallel();
  ForceParallel(const ForceParallel&) = delete;
  ForceParallel& operator=(const ForceParallel&) = delete;

private:
  bool previous_;
};

namespace detail {
bool force_parallel();
}

/// body(begin, end) over [0, n) in chunks of at least `grain` items (serial when small or single-threaded).
template <class Body>
void parallel_for_chunks(std::size_t n, std::size_t grain, Body&& body) {
  if (n == 0) return;
  const bool forced = detail::force_parallel();
  if (!forced && (n <= grain || max_threads() <= 1)) {
    body(std::size_t{0}, n);
    return;
  }
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, forced ? 1 : grain),
                    [&](const tbb::blocked_range<std::size_t>& r) { body(r.begin(), r.end()); });
}

/// a() and b(), at the same time when more than one thread is allowed (for two
/// independent pieces of work that are each too small to split well).
template <class A, class B>
void parallel_both(A&& a, B&& b) {
  if (max_threads() > 1 || detail::force_parallel()) {
    tbb::parallel_invoke(a, b);
  } else {
    a();
    b();
  }
}

/// f(i) for i in [0, n); see parallel_for_chunks.
template <class F>
void parallel_for_each(std::size_t n, std::size_t grain, F&& f) {
  parallel_for_chunks(n, grain, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) f(i);
  });
}

/// Appends to `out`, in index order, what per_chunk(begin, end, dst) appends to
/// dst for the fixed chunks [0, chunk), [chunk, 2 chunk), ... of [0, n). Chunks
/// run in parallel into their own vectors; serially, straight into `out`.
template <class T, class PerChunk>
void parallel_gather(std::size_t n, std::size_t chunk, std::vector<T>& out, PerChunk&& per_chunk) {
  const std::size_t chunks = (n + chunk - 1) / chunk;
  if (!detail::force_parallel() && (chunks <= 1 || max_threads() <= 1)) {
    if (n > 0) per_chunk(std::size_t{0}, n, out);
    return;
  }
  std::vector<std::vector<T>> parts(chunks);
  parallel_for_each(chunks, 1, [&](std::size_t c) { per_chunk(c * chunk, std::min(n, (c + 1) * chunk), parts[c]); });
  std::size_t total = out.size();
  for (const auto& p : parts) total += p.size();
  out.reserve(total);
  for (auto& p : parts) out.insert(out.end(), p.begin(), p.end());
}

/// min(init, f(0), ..., f(n-1)). min is exact and order-independent, so the
/// result does not depend on how the range is split.
template <class F>
double parallel_min(std::size_t n, std::size_t grain, double init, F&& f) {
  auto chunk_min = [&](std::size_t begin, std::size_t end, double m) {
    for (std::size_t i = begin; i < end; ++i) m = std::min(m, f(i));
    return m;
  };
  const bool forced = detail::force_parallel();
  if (!forced && (n <= grain || max_threads() <= 1)) return chunk_min(0, n, init);
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, n, forced ? 1 : grain), init,
      [&](const tbb::blocked_range<std::size_t>& r, double m) { return chunk_min(r.begin(), r.end(), m); },
      [](double a, double b) { return std::min(a, b); });
}

}  // namespace eipc
