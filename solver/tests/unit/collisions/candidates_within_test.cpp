// candidates_within from remembered gaps: the pairs are exactly those a fresh
// filtering finds, along chains of moves (noise small and large, common
// translations and turns, one body pushed onto the other, single vertices
// pulled out of their faces), with the gaps carried from each filtering to the
// next; the gaps stay lower bounds of the distances; and the moves matter
// (ignoring them loses pairs).
#include "eipc/broad_phase/broad_phase.hpp"
#include "eipc/collisions/contact_set.hpp"
#include "eipc/distance/edge_edge.hpp"
#include "eipc/distance/point_triangle.hpp"
#include "eipc/testing/box_mesh.hpp"
#include "eipc/testing/two_bodies.hpp"

#include <Eigen/Geometry>
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstring>
#include <functional>
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

/// Nothing known yet: every pair is measured.
std::vector<float> unknown(const Candidates& c) {
  return std::vector<float>(c.size(), -std::numeric_limits<float>::infinity());
}

Vec3 at(const Positions& x, int v) { return x.row(v).transpose(); }

/// Every gap is at most its pair's distance at x, and infinite for pairs
/// sharing a vertex; returns how many pairs share one.
int check_lower_bounds(const CollisionMesh& m, const Positions& x, const Candidates& c, const std::vector<float>& gaps) {
  const std::size_t npt = c.point_triangle.size();
  int shared = 0, above = 0;
  for (std::size_t i = 0; i < npt; ++i) {
    const auto [v, f] = c.point_triangle[i];
    const int t0 = m.faces(f, 0), t1 = m.faces(f, 1), t2 = m.faces(f, 2);
    if (v == t0 || v == t1 || v == t2) {
      CHECK(gaps[i] == std::numeric_limits<float>::infinity());
      ++shared;
      continue;
    }
    above += double(gaps[i]) > std::sqrt(point_triangle_distance_sq(at(x, v), at(x, t0), at(x, t1), at(x, t2)));
  }
  for (std::size_t i = 0; i < c.edge_edge.size(); ++i) {
    const auto [ea, eb] = c.edge_edge[i];
    const int a0 = m.edges(ea, 0), a1 = m.edges(ea, 1), b0 = m.edges(eb, 0), b1 = m.edges(eb, 1);
    if (a0 == b0 || a0 == b1 || a1 == b0 || a1 == b1) {
      CHECK(gaps[npt + i] == std::numeric_limits<float>::infinity());
      ++shared;
      continue;
    }
    above += double(gaps[npt + i]) > std::sqrt(edge_edge_distance_sq(at(x, a0), at(x, a1), at(x, b0), at(x, b1)));
  }
  CHECK(above == 0);
  return shared;
}

}  // namespace

TEST_CASE("candidates_within from remembered gaps keeps exactly the pairs a fresh filtering keeps", "[contact]") {
  const double dhat = 1e-3, within = 1.5 * dhat;
  const CollisionMesh m = stacked_boxes(dhat);
  const Candidates superset = find_candidates(m, m.rest, m.rest, 6 * dhat);
  REQUIRE(superset.size() > 1000);
  std::vector<float> gaps = unknown(superset);
  const Candidates at_rest = candidates_within(m, m.rest, superset, within, gaps, Positions::Zero(m.num_vertices(), 3));
  CHECK(at_rest.point_triangle == candidates_within(m, m.rest, superset, within).point_triangle);
  CHECK(at_rest.edge_edge == candidates_within(m, m.rest, superset, within).edge_edge);
  check_lower_bounds(m, m.rest, superset, gaps);

  std::mt19937 rng(GENERATE(1u, 2u, 3u));
  std::vector<int> top;  // the upper box's vertices
  for (int v = 0; v < m.num_vertices(); ++v)
    if (m.vertex_body[v] == 1) top.push_back(v);
  std::uniform_int_distribution<int> any_vertex(0, m.num_vertices() - 1);
  // Each move from the last positions; the gaps are carried along the whole chain.
  const std::vector<std::function<void(Positions&)>> moves = {
      [&](Positions& x) {
        std::normal_distribution<double> noise(0.0, 0.05 * dhat);
        for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] += noise(rng);
      },
      [&](Positions& x) { x.rowwise() += Eigen::RowVector3d(0.3, -0.2, 0.7); },  // far larger than any gap
      [&](Positions& x) {  // a turn of everything: large moves, no distance changes
        const Eigen::Matrix3d r = Eigen::AngleAxisd(0.8, Vec3(1, 2, 3).normalized()).toRotationMatrix();
        x = (x * r.transpose()).eval();
      },
      [&](Positions& x) {  // the upper box pushed down onto the lower one: its pairs close together
        for (int v : top) x(v, 2) -= 0.6 * dhat;
      },
      [&](Positions& x) {  // single vertices pulled by more than the margin
        std::normal_distribution<double> pull(0.0, 1.5 * dhat);
        for (int k = 0; k < 40; ++k) {
          const int v = any_vertex(rng);
          for (int c = 0; c < 3; ++c) x(v, c) += pull(rng);
        }
      },
      [&](Positions& x) {
        std::normal_distribution<double> noise(0.0, 0.5 * dhat);
        for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] += noise(rng);
      },
      [&](Positions& x) { for (int v : top) x(v, 2) += 0.4 * dhat; },
  };
  Positions x = m.rest;
  std::size_t kept = 0, lost_without_moves = 0;
  for (int round = 0; round < 3; ++round)
    for (const auto& move : moves) {
      Positions x1 = x;
      move(x1);
      const Candidates fresh = candidates_within(m, x1, superset, within);
      // Ignoring how far the vertices moved leaves out pairs that came closer.
      std::vector<float> stale = gaps;
      lost_without_moves +=
          fresh.size() - candidates_within(m, x1, superset, within, stale, Positions::Zero(m.num_vertices(), 3)).size();
      const Candidates remembered = candidates_within(m, x1, superset, within, gaps, x1 - x);
      CHECK(remembered.point_triangle == fresh.point_triangle);
      CHECK(remembered.edge_edge == fresh.edge_edge);
      check_lower_bounds(m, x1, superset, gaps);
      kept += fresh.size();
      x = x1;
    }
  CHECK(kept > 100);
  CHECK(lost_without_moves > 0);
}

TEST_CASE("remembered gaps stay lower bounds of the distance, infinite for pairs sharing a vertex", "[contact]") {
  const double dhat = 1e-3;
  const CollisionMesh m = stacked_boxes(dhat);
  Candidates all;  // pairs near and far, some sharing a vertex
  for (int v = 0; v < m.num_vertices(); v += 7)
    for (int f = 0; f < int(m.faces.rows()); f += 5) all.point_triangle.push_back({v, f});
  for (int a = 0; a < int(m.edges.rows()); a += 5)
    for (int b = a + 1; b < int(m.edges.rows()); b += 11) all.edge_edge.push_back({a, b});
  std::vector<float> gaps = unknown(all);
  Positions x = m.rest;
  std::mt19937 rng(4);
  std::normal_distribution<double> noise(0.0, 0.3 * dhat);
  for (int k = 0; k < 5; ++k) {
    Positions x1 = x;
    for (Eigen::Index i = 0; i < x1.size(); ++i) x1.data()[i] += noise(rng);
    candidates_within(m, x1, all, 2 * dhat, gaps, x1 - x);
    CHECK(check_lower_bounds(m, x1, all, gaps) > 0);
    x = x1;
  }
}

TEST_CASE("candidates_within rejects gaps or moves of the wrong size", "[contact]") {
  const CollisionMesh m = stacked_boxes(1e-3);
  const Candidates c = find_candidates(m, m.rest, m.rest, 3e-3);
  std::vector<float> gaps(c.size() - 1, 0.0f);
  const Positions moved = Positions::Zero(m.num_vertices(), 3);
  CHECK_THROWS_AS(candidates_within(m, m.rest, c, 2e-3, gaps, moved), std::invalid_argument);
  gaps.resize(c.size());
  CHECK_THROWS_AS(candidates_within(m, m.rest, c, 2e-3, gaps, Positions::Zero(3, 3)), std::invalid_argument);
}

TEST_CASE("candidates_within over a body's own primitives equals it over the whole mesh", "[contact]") {
  // A body's pairs with itself refiltered with the move balls of that body's
  // faces and edges only: the same pairs, the same gaps, bit for bit.
  const double dhat = 1e-3, within = 1.5 * dhat;
  const CollisionMesh m = stacked_boxes(dhat);
  const int body = GENERATE(0, 1);
  const Candidates own = find_candidates_within_body(m, m.rest, m.rest, 50 * dhat, body);
  PrimitiveRanges ranges{int(m.faces.rows()), 0, int(m.edges.rows()), 0};
  for (int f = 0; f < int(m.faces.rows()); ++f)
    if (m.body_of_face(f) == body) ranges.first_face = std::min(ranges.first_face, f), ranges.last_face = f + 1;
  for (int e = 0; e < int(m.edges.rows()); ++e)
    if (m.body_of_edge(e) == body) ranges.first_edge = std::min(ranges.first_edge, e), ranges.last_edge = e + 1;
  REQUIRE(ranges.last_face - ranges.first_face < int(m.faces.rows()));
  // More pairs than the body's primitives: the ranged refiltering makes tables.
  REQUIRE(own.point_triangle.size() > std::size_t(ranges.last_face - ranges.first_face));
  REQUIRE(own.edge_edge.size() > std::size_t(ranges.last_edge - ranges.first_edge));
  std::mt19937 rng(7u);
  std::normal_distribution<double> noise(0.0, 0.3 * dhat);
  std::vector<float> whole = unknown(own), ranged = unknown(own);
  Positions x = m.rest;
  for (int step = 0; step < 4; ++step) {
    Positions next = x;
    for (Eigen::Index i = 0; i < next.size(); ++i) next.data()[i] += noise(rng);
    const Positions moved = next - x;
    const Candidates a = candidates_within(m, next, own, within, whole, moved);
    const Candidates b = candidates_within(m, next, own, within, ranged, moved, &ranges);
    CHECK(a.point_triangle == b.point_triangle);
    CHECK(a.edge_edge == b.edge_edge);
    CHECK(std::memcmp(whole.data(), ranged.data(), whole.size() * sizeof(float)) == 0);
    x = next;
  }
}
