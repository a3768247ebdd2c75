// Private helpers: evaluate per-contact local results in parallel into a vector,
// then scatter them into full-space vectors in contact order, so the
// result is bit-identical for any thread count.
#pragma once

#include "eipc/collisions/contact_set.hpp"

#include "eipc/util/parallel.hpp"

#include <vector>

namespace eipc::detail {

/// f(k) for every contact k; `grain` as in parallel_for_each (from the cost of one f).
template <typename T, typename F> std::vector<T> map_contacts(std::size_t n, std::size_t grain, F f) {
  std::vector<T> out(n);
  parallel_for_each(n, grain, [&](std::size_t k) { out[k] = f(k); });
  return out;
}

/// g[3 v_i + a] += local[3 i + a] for the contact's vertices v_i.
template <typename C> void scatter_add(const C& c, const Vec<12>& local, VecX& g) {
  for (int i = 0; i < c.num_vertices(); ++i) g.segment<3>(3 * c.vertices[i]) += local.segment<3>(3 * i);
}

}  // namespace eipc::detail
