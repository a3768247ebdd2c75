// candidates_within from remembered gaps: the pairs are exactly those a fresh
// filtering finds, for moves small and large, with a common translation added;
// and the moves matter (ignoring them loses pairs).
#include "eipc/broad_phase/broad_phase.hpp"
#include "eipc/collisions/contact_set.hpp"
#include "eipc/distance/point_triangle.hpp"
#include "eipc/testing/box_mesh.hpp"
#include "eipc/testing/two_bodies.hpp"

#include <catch2/catch.hpp>
#include <limits>
#include <random>

using namespace eipc;

namespace {

/// A box surface and a second one dhat above it, as one body each.
CollisionMesh stacked_boxes(double dhat) {
  const TetMesh a = box_tet_mesh(Vec3(0, 0, 0), Vec3(0.1, 0.1, 0.05), 4, 4, 2);
  const TetMesh b = box_tet_mesh(Vec3(0.02, 0.03, 0.05 + dhat), Vec3(0.09, 0.08, 0.1), 4, 4, 2);
  return two_body_collision_mesh(a, b);
}

/// |x - reference - t| per vertex, for the common translation t.
std::vector<double> moves(const Positions& reference, const Positions& x, const Eigen::RowVector3d& t) {
  std::vector<double> moved(std::size_t(x.rows()));
  for (Eigen::Index v = 0; v < x.rows(); ++v) moved[std::size_t(v)] = (x.row(v) - reference.row(v) - t).norm();
  return moved;
}

}  // namespace

TEST_CASE("candidates_within from remembered gaps keeps exactly the pairs a fresh filtering keeps", "[contact]") {
  const double dhat = 1e-3, within = 1.5 * dhat;
  const CollisionMesh m = stacked_boxes(dhat);
  const Candidates superset = find_candidates(m, m.rest, m.rest, 6 * dhat);
  REQUIRE(superset.size() > 1000);
  std::vector<float> gaps;
  const Candidates at_rest = candidates_within(m, m.rest, superset, within, gaps);
  REQUIRE(gaps.size() == superset.size());
  CHECK(at_rest.point_triangle == candidates_within(m, m.rest, superset, within).point_triangle);
  CHECK(at_rest.edge_edge == candidates_within(m, m.rest, superset, within).edge_edge);

  std::mt19937 rng(GENERATE(1u, 2u, 3u));
  const Eigen::RowVector3d translation(0.3, -0.2, 0.7);  // far larger than any gap
  std::size_t kept = 0, lost_without_moves = 0;
  for (const double scale : {0.05, 0.2, 0.5, 1.0, 2.0}) {
    std::normal_distribution<double> noise(0.0, scale * dhat);
    Positions x = m.rest;
    for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] += noise(rng);
    x.rowwise() += translation;
    const Candidates fresh = candidates_within(m, x, superset, within);
    const Candidates remembered = candidates_within(m, x, superset, within, gaps, moves(m.rest, x, translation));
    CHECK(remembered.point_triangle == fresh.point_triangle);
    CHECK(remembered.edge_edge == fresh.edge_edge);
    kept += fresh.size();
    // Ignoring how far the vertices moved leaves out pairs that came closer.
    const std::vector<double> none(std::size_t(x.rows()), 0.0);
    lost_without_moves += fresh.size() - candidates_within(m, x, superset, within, gaps, none).size();
  }
  CHECK(kept > 100);
  CHECK(lost_without_moves > 0);
}

TEST_CASE("remembered gaps are lower bounds of the distance, infinite for pairs sharing a vertex", "[contact]") {
  const double dhat = 1e-3;
  const CollisionMesh m = stacked_boxes(dhat);
  Candidates all;
  for (int v = 0; v < m.num_vertices(); v += 7)
    for (int f = 0; f < int(m.faces.rows()); f += 5) all.point_triangle.push_back({v, f});
  std::vector<float> gaps;
  candidates_within(m, m.rest, all, 2 * dhat, gaps);
  int shared = 0;
  for (std::size_t i = 0; i < all.point_triangle.size(); ++i) {
    const auto [v, f] = all.point_triangle[i];
    if (m.faces(f, 0) == v || m.faces(f, 1) == v || m.faces(f, 2) == v) {
      CHECK(gaps[i] == std::numeric_limits<float>::infinity());
      ++shared;
      continue;
    }
    const Vec3 p = m.rest.row(v).transpose(), a = m.rest.row(m.faces(f, 0)).transpose(),
               b = m.rest.row(m.faces(f, 1)).transpose(), c = m.rest.row(m.faces(f, 2)).transpose();
    const double d = std::sqrt(point_triangle_distance_sq(p, a, b, c, point_triangle_distance_type(p, a, b, c)));
    CHECK(double(gaps[i]) <= d);
    CHECK(double(gaps[i]) >= 0.0);
  }
  CHECK(shared > 0);
}

TEST_CASE("candidates_within rejects gaps or moves of the wrong size", "[contact]") {
  const CollisionMesh m = stacked_boxes(1e-3);
  const Candidates c = find_candidates(m, m.rest, m.rest, 3e-3);
  std::vector<float> gaps(c.size() - 1, 0.0f);
  const std::vector<double> moved(std::size_t(m.num_vertices()), 0.0);
  CHECK_THROWS_AS(candidates_within(m, m.rest, c, 2e-3, gaps, moved), std::invalid_argument);
  gaps.resize(c.size());
  CHECK_THROWS_AS(candidates_within(m, m.rest, c, 2e-3, gaps, std::vector<double>(3, 0.0)), std::invalid_argument);
}
