#include "eipc/util/parallel.hpp"

#include <tbb/global_control.h>
#include <tbb/info.h>

#include <atomic>

namespace eipc {

namespace {
std::atomic<int> g_thread_limit{0};  // 0: no ThreadLimit alive, all cores
std::atomic<bool> g_force_parallel{false};
}  // namespace

// TBB registers a global_control by its address, and the class can be copied: it must
// be built where it lives. (Built in a temporary and copied, the limit ended with the
// temporary and only our own loops, through max_threads(), kept to it.)
struct ThreadLimit::Impl {
  tbb::global_control control;
  explicit Impl(int threads)
      : control(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads)) {}
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
};

ThreadLimit::ThreadLimit(int threads)
    : threads_(threads > 0 ? threads : tbb::info::default_concurrency()), previous_(g_thread_limit.load()) {
  impl_ = std::make_unique<Impl>(threads_);
  // TBB honours the smallest live limit; so do we.
  g_thread_limit = previous_ > 0 && previous_ < threads_ ? previous_ : threads_;
}

ThreadLimit::~ThreadLimit() { g_thread_limit = previous_; }

int max_threads() {
  const int limit = g_thread_limit.load(std::memory_order_relaxed);
  if (limit > 0) return limit;
  static const int all = tbb::info::default_concurrency();
  return all;
}

ForceParallel::ForceParallel() : previous_(g_force_parallel.exchange(true)) {}
ForceParallel::~ForceParallel() { g_force_parallel = previous_; }

namespace detail {
bool force_parallel() { return g_force_parallel.load(std::memory_order_relaxed); }
}  // namespace detail

}  // namespace eipc
