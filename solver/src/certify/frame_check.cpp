#include "eipc/certify/frame_check.hpp"

#include "eipc/certify/box_overlap.hpp"
#include "eipc/certify/exact_tests.hpp"
#include "eipc/mesh/surface.hpp"
#include "stacked_triangles.hpp"

#include <tbb/parallel_for.h>

#include <chrono>

namespace eipc::certify {
namespace {

Box3 triangle_box(const TriangleRef& t) {
  Box3 box;
  for (const Vec3& p : t.p) box.extend(p);
  return box;
}

}  // namespace

FrameCheck check_frame(const std::vector<BodyState>& bodies, std::optional<double> ground_height,
                       int max_examples) {
  validate_bodies(bodies);
  FrameCheck out;
  auto record = [&](const Violation& v) {
    if (static_cast<int>(out.examples.size()) < max_examples) out.examples.push_back(v);
  };
  const StackedTriangles tris(bodies);
  const int n = tris.size();

  // Degenerate (exactly collinear) triangles: reported, and kept out of the pair test.
  // Every triangle's exact closed box, for the pair test and its body's box.
  std::vector<char> degenerate(n, 0);
  std::vector<Box3> boxes(n);
  tbb::parallel_for(0, n, [&](int g) {
    const TriangleRef t = tris.ref(bodies, g);
    degenerate[g] = triangle_is_degenerate(t.p[0], t.p[1], t.p[2]);
    boxes[g] = triangle_box(t);
  });
  std::vector<Box3> body_box(bodies.size());
  for (int g = 0; g < n; ++g) {
    body_box[tris.body[g]].extend(boxes[g].lo);
    body_box[tris.body[g]].extend(boxes[g].hi);
    if (degenerate[g]) boxes[g] = Box3{};  // empty: in no pair
  }
  for (int g = 0; g < n; ++g)
    if (degenerate[g]) {
      ++out.degenerate;
      record({ViolationKind::degenerate_triangle, tris.body[g], tris.local[g]});
    }

  // Ground half-space z <= height (exact double comparison), every surface vertex:
  // the solid a closed surface bounds lies above the plane iff its vertices do.
  // (Interior vertices below it mean inverted elements, not an intersection.)
  if (ground_height)
    for (std::size_t b = 0; b < bodies.size(); ++b)
      for (int v : surface_vertices(*bodies[b].faces))
        if ((*bodies[b].x)(v, 2) <= *ground_height) {
          ++out.ground;
          record({ViolationKind::ground, static_cast<int>(b), v});
        }

  // Triangle pairs: overlapping exact closed boxes, then exact adjacency-aware tests.
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  // The exact test runs as the grid finds each pair, so no list of every candidate is made.
  const auto hits = overlapping_box_pairs_where(
      boxes, [&](int s, int t) { return triangles_intersect(tris.ref(bodies, s), tris.ref(bodies, t)); },
      &out.candidate_pairs);
  out.pair_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  for (const auto& [s, t] : hits) {
    ++out.triangle_pairs;
    const Violation hit{ViolationKind::triangle_pair, tris.body[s], tris.local[s], tris.body[t], tris.local[t]};
    record(hit);
    out.body_hits.push_back(hit);
  }

  // Whole-body containment: with no surface crossing, a body is inside another
  // iff any one of its vertices is; test one surface vertex per ordered pair.
  for (std::size_t a = 0; a < bodies.size(); ++a) {
    if (bodies[a].faces->rows() == 0) continue;
    const int v = (*bodies[a].faces)(0, 0);
    const Vec3 p = bodies[a].x->row(v).transpose();
    for (std::size_t b = 0; b < bodies.size(); ++b) {
      // Outside b's closed box is outside b (exact comparisons): skips the ray test
      // for all but nearby bodies, which matters with many bodies (--bodies components).
      if (a == b || !bodies[b].closed || !body_box[b].overlaps({p, p})) continue;
      const PointSide side = side_of_closed_surface(p, *bodies[b].x, *bodies[b].faces);
      if (side == PointSide::outside) continue;
      ++out.containment;
      const ViolationKind kind =
          side == PointSide::undecided ? ViolationKind::containment_undecided : ViolationKind::containment;
      const Violation hit{kind, static_cast<int>(a), v, static_cast<int>(b), -1};
      record(hit);
      out.body_hits.push_back(hit);
    }
  }
  return out;
}

}  // namespace eipc::certify
