// Internal: the triangles of all bodies under one global numbering
// (body order, then face order); vertex ids are global (body offset + local).
#pragma once

#include "eipc/certify/exact_tests.hpp"
#include "eipc/certify/frame_check.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace eipc::certify {

struct StackedTriangles {
  std::vector<int> body, local;
  std::vector<long> vertex_offset;  ///< per body: first global vertex id (plus the total at the end)

  explicit StackedTriangles(const std::vector<BodyState>& bodies) {
    long offset = 0;
    for (std::size_t b = 0; b < bodies.size(); ++b) {
      vertex_offset.push_back(offset);
      offset += bodies[b].x->rows();
      for (int f = 0; f < bodies[b].faces->rows(); ++f) {
        body.push_back(static_cast<int>(b));
        local.push_back(f);
      }
    }
    vertex_offset.push_back(offset);
  }
  int size() const { return static_cast<int>(body.size()); }

  /// Global vertex id of corner k of global triangle g.
  long vertex_id(const std::vector<BodyState>& bodies, int g, int k) const {
    return vertex_offset[body[g]] + (*bodies[body[g]].faces)(local[g], k);
  }
  /// (body, local vertex) of a global vertex id.
  std::pair<int, int> locate(long id) const {
    const int b = static_cast<int>(std::upper_bound(vertex_offset.begin(), vertex_offset.end(), id) -
                                   vertex_offset.begin()) - 1;
    return {b, static_cast<int>(id - vertex_offset[b])};
  }
  Vec3 position(const std::vector<BodyState>& bodies, long id) const {
    const auto [b, v] = locate(id);
    return bodies[b].x->row(v).transpose();
  }
  TriangleRef ref(const std::vector<BodyState>& bodies, int g) const {
    const int b = body[g];  // known: no search through the offsets (the hot path of a frame check)
    TriangleRef t;
    for (int k = 0; k < 3; ++k) {
      const int v = (*bodies[b].faces)(local[g], k);
      t.id[k] = vertex_offset[b] + v;
      t.p[k] = bodies[b].x->row(v).transpose();
    }
    return t;
  }
};

/// Throws InputError when a body's faces index outside its vertices or a position is not finite.
inline void validate_bodies(const std::vector<BodyState>& bodies) {
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const auto& f = *bodies[b].faces;
    if (f.size() > 0 && (f.minCoeff() < 0 || f.maxCoeff() >= bodies[b].x->rows()))
      throw InputError("certify: body " + std::to_string(b) + " has a triangle index outside its vertices");
    if (!bodies[b].x->allFinite())
      throw InputError("certify: body " + std::to_string(b) + " has a non-finite vertex position");
  }
}

}  // namespace eipc::certify
