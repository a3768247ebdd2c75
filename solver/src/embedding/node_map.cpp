#include "eipc/embedding/node_map.hpp"

#include <algorithm>
#include <cmath>

#include <emmintrin.h>

namespace eipc {

NodeMap NodeMap::identity(int n) {
  NodeMap map;
  map.nodes.resize(n, 4);
  map.weights.setZero(n, 4);
  for (int v = 0; v < n; ++v) {
    map.nodes.row(v).setConstant(v);
    map.weights(v, 0) = 1.0;
  }
  return map;
}

namespace {

/// x = sum_j w_j q[n_j] for one vertex (q: 3 doubles per node), summed from
/// +0. For finite q this equals the sum over the nonzero weights alone bit for
/// bit (signs of zero included: adding 0 * q changes no sum that starts from
/// +0), without a branch per slot: this runs over every collision vertex at
/// each new Newton iterate and over every fine vertex for each direction's
/// largest move.
/// Coordinates 0 and 1 as one SSE2 packet, 2 alone, inlined into the loops:
/// the same products and sums in the same order (GCC kept a loop over the
/// three coordinates, ~67 instructions a vertex).
[[gnu::always_inline]] inline void map_vertex(const int* n, const double* w, const double* q, double* x) {
  const double* q0 = q + 3 * n[0];
  const __m128d zero = _mm_setzero_pd();
  if (w[1] == 0.0 && w[2] == 0.0 && w[3] == 0.0) {  // a vertex on one node (full-space bodies)
    _mm_storeu_pd(x, _mm_add_pd(zero, _mm_mul_pd(_mm_set1_pd(w[0]), _mm_loadu_pd(q0))));
    x[2] = 0.0 + w[0] * q0[2];
    return;
  }
  const double *q1 = q + 3 * n[1], *q2 = q + 3 * n[2], *q3 = q + 3 * n[3];
  __m128d sum = _mm_add_pd(zero, _mm_mul_pd(_mm_set1_pd(w[0]), _mm_loadu_pd(q0)));
  sum = _mm_add_pd(sum, _mm_mul_pd(_mm_set1_pd(w[1]), _mm_loadu_pd(q1)));
  sum = _mm_add_pd(sum, _mm_mul_pd(_mm_set1_pd(w[2]), _mm_loadu_pd(q2)));
  sum = _mm_add_pd(sum, _mm_mul_pd(_mm_set1_pd(w[3]), _mm_loadu_pd(q3)));
  const double z = 0.0 + w[0] * q0[2] + w[1] * q1[2] + w[2] * q2[2] + w[3] * q3[2];
  _mm_storeu_pd(x, sum);
  x[2] = z;
}

}  // namespace

Positions NodeMap::apply(const Positions& q) const {
  Positions x(size(), 3);
  for (int v = 0; v < size(); ++v) map_vertex(&nodes(v, 0), &weights(v, 0), q.data(), x.data() + 3 * v);
  return x;
}

double NodeMap::squared_norm_at(int v, const Positions& q, int first_node) const {
  Vec3 x;
  map_vertex(&nodes(v, 0), &weights(v, 0), q.data() + 3 * first_node, x.data());
  return x.squaredNorm();
}

double NodeMap::max_norm(const Positions& q, int first_node) const {
  double largest = 0.0;  // squared: sqrt is monotone, so the max of the norms is the root of this
  for (int v = 0; v < size(); ++v) largest = std::max(largest, squared_norm_at(v, q, first_node));
  return std::sqrt(largest);
}

}  // namespace eipc
