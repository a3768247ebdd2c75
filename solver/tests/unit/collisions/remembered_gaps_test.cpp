// RememberedGaps: along a chain of moves (noise, a common turn, a squeeze of
// everything, one body pushed onto the other) with the candidate list found
// again now and then (its gaps carried over to the pairs found again), every
// filtering keeps exactly the pairs of a fresh filtering.
#include "eipc/collisions/remembered_gaps.hpp"

#include "eipc/broad_phase/broad_phase.hpp"
#include "eipc/collisions/contact_set.hpp"
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
  std::size_t kept = 0, carried = 0;
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
    const Candidates fresh = candidates_within(m, x1, list, within);
    const Candidates remembered = gaps.within(m, x1, list, within);
    CHECK(remembered.point_triangle == fresh.point_triangle);
    CHECK(remembered.edge_edge == fresh.edge_edge);
    kept += fresh.size();
    x = x1;
  }
  CHECK(kept > 1000);
  CHECK(carried > 10000);
}
