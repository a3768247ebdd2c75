// RememberedGaps: along a chain of moves (noise, a common turn, a squeeze of
// everything, one body pushed onto the other) with the candidate list found
// again now and then (its gaps carried over to the pairs found again), every
// filtering keeps exactly the pairs of a fresh filtering, and the bounds the
// gaps give at the next positions are at most the pairs' distances there.
#include "eipc/collisions/remembered_gaps.hpp"

#include "eipc/broad_phase/broad_phase.hpp"
#include "eipc/collisions/contact_set.hpp"
#include "eipc/distance/edge_edge.hpp"
#include "eipc/distance/point_triangle.hpp"
#include "eipc/testing/box_mesh.hpp"
#include "eipc/testing/two_bodies.hpp"

#include <Eigen/Geometry>
#include <catch2/catch.hpp>
#include <random>

using namespace eipc;

TEST_CASE("remembered gaps carried through new candidate lists filter exactly as a fresh filtering", "[contact]") {
  const double dhat = 1e-3, within = 1.5 * dhat;
  const TetMesh lower = box_tet_mesh(Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.05), 5, 5, 2);
  const TetMesh upper = box_tet_mesh(Vec3(0.02, 0.03, 0.05 + dhat), Vec3(0.09, 0.08, 0.1), 4, 4, 2);
  const CollisionMesh m = two_body_collision_mesh(lower, upper);
  std::mt19937 rng(GENERATE(1u, 2u));
  std::normal_distribution<double> noise(0.0, 0.2 * dhat);

  RememberedGaps gaps;
  Positions x = m.rest;
  Candidates list;
  std::size_t kept = 0, carried = 0, bounded = 0, tight = 0;
  auto row = [](const Positions& p, int v) { return Vec3(p.row(v).transpose()); };
  for (int k = 0; k < 40; ++k) {
    Positions x1 = x;
    switch (k % 5) {
      case 0:  // the list found again, at another inflation: carried over
      {
        const Candidates then = list;
        list = find_candidates(m, x, x, (k % 10 == 0 ? 6.0 : 4.0) * dhat);
        gaps.carry(then, list);
        carried += list.size();
        break;
      }
      case 1:
        for (Eigen::Index i = 0; i < x1.size(); ++i) x1.data()[i] += noise(rng);
        break;
      case 2:  // turned about a far axis: large moves, no distance changes
        x1 = (x1 * Eigen::AngleAxisd(0.3, Vec3(0, 1, 1).normalized()).toRotationMatrix().transpose()).eval();
        break;
      case 3:  // everything squeezed along z by 2%: distances shrink across the stack
        x1.col(2) *= 0.98;
        break;
      case 4:  // the upper box pushed down by half dhat, or lifted again
        for (int v = 0; v < m.num_vertices(); ++v)
          if (m.vertex_body[v] == 1) x1(v, 2) += (k % 10 == 4 ? -0.5 : 0.4) * dhat;
        break;
    }
    // Before this filtering, the gaps kept at x bound the distances at x1.
    if (const PairDistanceBounds bounds = gaps.bounds_at(m, x1, list)) {
      for (std::size_t i = 0; i < list.point_triangle.size(); ++i) {
        const PointTriangleCandidate& c = list.point_triangle[i];
        const double d = std::sqrt(point_triangle_distance_sq(row(x1, c.vertex), row(x1, m.faces(c.face, 0)),
                                                              row(x1, m.faces(c.face, 1)), row(x1, m.faces(c.face, 2))));
        const double b = bounds.point_triangle(i, c);
        CHECK(b <= d);
        bounded += std::isfinite(b);
        tight += b > 0.9 * d;
      }
      for (std::size_t i = 0; i < list.edge_edge.size(); ++i) {
        const EdgeEdgeCandidate& c = list.edge_edge[i];
        const double d = std::sqrt(edge_edge_distance_sq(row(x1, m.edges(c.edge_a, 0)), row(x1, m.edges(c.edge_a, 1)),
                                                         row(x1, m.edges(c.edge_b, 0)), row(x1, m.edges(c.edge_b, 1))));
        const double b = bounds.edge_edge(i, c);
        CHECK(b <= d);
        bounded += std::isfinite(b);
        tight += b > 0.9 * d;
      }
    }
    const Candidates fresh = candidates_within(m, x1, list, within);
    // Every other filtering on shared positions: the gaps then hold at them
    // (shared, not copied), and the next filtering's moves are measured from them.
    const SharedPositions at = std::make_shared<const Positions>(x1);
    const Candidates remembered = k % 2 ? gaps.within(m, at, list, within) : gaps.within(m, x1, list, within);
    CHECK((gaps.reference() == at) == bool(k % 2));
    CHECK(*gaps.reference() == x1);
    CHECK(remembered.point_triangle == fresh.point_triangle);
    CHECK(remembered.edge_edge == fresh.edge_edge);
    kept += fresh.size();
    x = x1;
  }
  CHECK(kept > 1000);
  CHECK(carried > 10000);
  // Bounds are known for many pairs, and within 10% of the distance for a good
  // share of them (about 58 k and 9 k): not just -inf or 0.
  CHECK(bounded > 40000);
  CHECK(tight > 5000);
}
