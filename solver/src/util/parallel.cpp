#include "eipc/util/parallel.hpp"

#include <tbb/global_control.h>
#include <tbb/info.h>

namespace eipc {

struct ThreadLimit::Impl {
  tbb::global_control control;
};

ThreadLimit::ThreadLimit(int threads)
    : threads_(threads > 0 ? threads : tbb::info::default_concurrency()) {
  impl_ = std::make_unique<Impl>(Impl{tbb::global_control(tbb::global_control::max_allowed_parallelism,
                                                          static_cast<std::size_t>(threads_))});
}

ThreadLimit::~ThreadLimit() = default;

}  // namespace eipc
