// Private helpers: evaluate per-contact local results in parallel into a vector,
// then scatter them into full-space vectors/triplets in contact order, so the
// result is bit-identical for any thread count.
#pragma once

#include "eipc/contact/contact_set.hpp"

#include "eipc/util/parallel.hpp"

#include <Eigen/SparseCore>

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

template <typename C>
void append_triplets(const C& c, const Mat<12>& local, std::vector<Eigen::Triplet<double>>& out) {
  const int n = c.num_vertices();
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b)
          out.emplace_back(3 * c.vertices[i] + a, 3 * c.vertices[j] + b, local(3 * i + a, 3 * j + b));
}

}  // namespace eipc::detail
