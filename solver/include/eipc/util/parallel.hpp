// Thread control. Results never depend on the thread count: parallel loops
// write per-item results that are then combined in a fixed order.
#pragma once

#include <memory>

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
};

}  // namespace eipc
