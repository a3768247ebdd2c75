// The parallel loop helpers: same results serial and parallel, serial below the grain.
#include <catch2/catch.hpp>

#include "eipc/util/parallel.hpp"

#include <tbb/info.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using namespace eipc;

TEST_CASE("max_threads follows the innermost ThreadLimit", "[util][parallel]") {
  const int all = max_threads();
  CHECK(all >= 1);
  {
    ThreadLimit two(2);
    CHECK(max_threads() == 2);
    {
      ThreadLimit one(1);
      CHECK(max_threads() == 1);
    }
    CHECK(max_threads() == 2);
  }
  CHECK(max_threads() == all);
}

TEST_CASE("loops at or below their grain run as one serial chunk", "[util][parallel]") {
  ThreadLimit limit(2);
  std::atomic<int> chunks{0};
  parallel_for_chunks(100, 100, [&](std::size_t b, std::size_t e) {
    ++chunks;
    CHECK(b == 0);
    CHECK(e == 100);
  });
  CHECK(chunks == 1);
  chunks = 0;
  ThreadLimit one(1);
  parallel_for_chunks(100000, 10, [&](std::size_t, std::size_t) { ++chunks; });
  CHECK(chunks == 1);  // a single thread never goes through TBB
}

TEST_CASE("forced parallel loops cover every item once", "[util][parallel]") {
  ThreadLimit limit(2);
  ForceParallel force;
  std::vector<int> hits(5000, 0);
  parallel_for_each(hits.size(), 1000, [&](std::size_t i) { ++hits[i]; });
  for (int h : hits) REQUIRE(h == 1);
}

TEST_CASE("parallel_gather and parallel_min do not depend on the thread count", "[util][parallel][determinism]") {
  const std::size_t n = 10007;
  auto item = [](std::size_t i) { return std::sin(0.37 * double(i)) * double(i % 97); };
  auto gather = [&](std::vector<double>& out) {
    parallel_gather(n, 64, out, [&](std::size_t b, std::size_t e, std::vector<double>& dst) {
      for (std::size_t i = b; i < e; ++i)
        if (item(i) > 10.0) dst.push_back(item(i));
    });
  };
  std::vector<double> serial, parallel;
  double m1, m2;
  {
    ThreadLimit one(1);
    gather(serial);
    m1 = parallel_min(n, 64, 1e300, item);
  }
  {
    ThreadLimit two(2);
    ForceParallel force;
    parallel.push_back(-1.0);  // gather appends after what is there
    gather(parallel);
    m2 = parallel_min(n, 64, 1e300, item);
  }
  REQUIRE(serial.size() > 1000);
  REQUIRE(parallel.size() == serial.size() + 1);
  CHECK(parallel[0] == -1.0);
  CHECK(std::equal(serial.begin(), serial.end(), parallel.begin() + 1));
  double expected = 1e300;
  for (std::size_t i = 0; i < n; ++i) expected = std::min(expected, item(i));
  CHECK(m1 == expected);
  CHECK(m2 == expected);
}

TEST_CASE("a ThreadLimit of 1 keeps TBB's own loops on the calling thread", "[util][parallel]") {
  // TBB's loops (not only ours, which ask max_threads()) must keep to the limit: the
  // certifier calls tbb::parallel_for directly. Items that sleep give idle workers
  // every chance to steal, so without the limit a second thread shows up.
  auto threads_used = [] {
    std::mutex m;
    std::set<std::thread::id> ids;
    tbb::parallel_for(tbb::blocked_range<int>(0, 200, 1), [&](const tbb::blocked_range<int>&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      const std::lock_guard<std::mutex> lock(m);
      ids.insert(std::this_thread::get_id());
    });
    return ids.size();
  };
  {
    ThreadLimit one(1);
    CHECK(threads_used() == 1);
  }
  if (tbb::info::default_concurrency() >= 2) {
    ThreadLimit two(2);
    CHECK(threads_used() == 2);  // the observable works: two threads when two are allowed
  }
}
