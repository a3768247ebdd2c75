// max_collision_free_step: analytic contact times for simple motions.
#include <catch2/catch.hpp>
#include <cmath>

#include "eipc/ccd/ccd_distance.hpp"
#include "eipc/ccd/collision_free_step.hpp"
#include "eipc/util/parallel.hpp"

using namespace eipc;

namespace {

/// Body 0: triangle (0,0,0), (1,0,0), (0,1,0). Body 1: a single vertex (index 3)
/// with a triangle far away so it is a surface vertex of its own body.
CollisionMesh triangle_and_point() {
  CollisionMesh m;
  m.rest.resize(6, 3);
  m.rest << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.2, 0.2, 1, 10.2, 0.2, 1, 10.2, 1.2, 1;
  m.faces.resize(2, 3);
  m.faces << 0, 1, 2, 3, 4, 5;
  m.edges.resize(6, 2);
  m.edges << 0, 1, 0, 2, 1, 2, 3, 4, 3, 5, 4, 5;
  m.vertex_body = {0, 0, 0, 1, 1, 1};
  return m;
}

}  // namespace

TEST_CASE("a vertex falling through a triangle stops just before it", "[contact][ccd_step]") {
  const CollisionMesh m = triangle_and_point();
  const Positions x0 = m.rest;
  Positions x1 = x0;
  x1.block(3, 0, 3, 3).col(2).array() -= 2.0;  // body 1 drops by 2: the vertex crosses z = 0 at alpha 0.5
  const double ratio = 0.1;
  const double alpha = max_collision_free_step(m, x0, x1, std::nullopt, ratio);
  // The vertex's gap at alpha is at least ratio * 1 = 0.1, so alpha <= 0.45; ACCD stops
  // within a few of its own steps of that, well after 0.4.
  CHECK(alpha <= 0.45);
  CHECK(alpha > 0.4);
  const Positions xa = x0 + alpha * (x1 - x0);
  const double d = ccd::point_triangle_distance(xa.row(3).transpose(), xa.row(0).transpose(), xa.row(1).transpose(),
                                                xa.row(2).transpose());
  CHECK(d >= 0.1);

  // Moving away is free; moving sideways above the triangle is free.
  CHECK(max_collision_free_step(m, x0, x0 + (x0 - x1), std::nullopt, ratio) == 1.0);
  Positions side = x0;
  side.block(3, 0, 3, 1).array() += 0.5;
  CHECK(max_collision_free_step(m, x0, side, std::nullopt, ratio) == 1.0);
}

TEST_CASE("edges crossing stop before contact", "[contact][ccd_step]") {
  // Edge a (0,1) along x at z = 1; edge b (2,3) along y at z = 0; a drops by 2.
  CollisionMesh m;
  m.rest.resize(4, 3);
  m.rest << -1, 0, 1, 1, 0, 1, 0, -1, 0, 0, 1, 0;
  m.faces.resize(0, 3);
  m.edges.resize(2, 2);
  m.edges << 0, 1, 2, 3;
  m.vertex_body = {0, 0, 1, 1};
  Positions x1 = m.rest;
  x1.block(0, 2, 2, 1).array() -= 2.0;
  const double alpha = max_collision_free_step(m, m.rest, x1, std::nullopt, 0.1);
  CHECK(alpha <= 0.45);
  CHECK(alpha > 0.4);
  CHECK(max_collision_free_step(m, m.rest, x1, std::nullopt, 0.0) <= 0.5);
}

TEST_CASE("ground contact time is the exact linear solve", "[contact][ccd_step]") {
  const CollisionMesh m = triangle_and_point();
  Positions x0 = m.rest;
  x0.col(2).array() += 1.0;  // everything between z = 1 and z = 2
  Positions x1 = x0;
  x1.col(2).array() -= 4.0;  // triangle (z = 1) reaches z = 0 at alpha = 0.25
  const double alpha = max_collision_free_step(m, x0, x1, 0.0, 0.1);
  // Gap 1, minimum separation 0.1: alpha = 0.9 / 4 = 0.225 (rounded down).
  CHECK(alpha <= 0.225);
  CHECK(alpha == Approx(0.225).epsilon(1e-12));
  CHECK(max_collision_free_step(m, x0, x1, -10.0, 0.1) == 1.0);
  // A vertex already on the ground allows no motion toward it.
  x0(0, 2) = 0.0;
  CHECK(max_collision_free_step(m, x0, x1, 0.0, 0.1) == 0.0);
}

TEST_CASE("collision-free step does not depend on the thread count", "[contact][ccd_step]") {
  // A row of falling triangles over a fixed triangle grid.
  CollisionMesh m;
  const int n = 40;
  m.rest.resize(6 * n, 3);
  m.faces.resize(2 * n, 3);
  m.edges.resize(6 * n, 2);
  for (int i = 0; i < 2 * n; ++i) {
    const double z = i < n ? 0.0 : 1.0 + 0.01 * (i % 7);
    const double x = (i % n) * 1.5 + (i < n ? 0.0 : 0.1);  // separate triangles (no touching neighbours)
    m.rest.row(3 * i) << x, 0, z;
    m.rest.row(3 * i + 1) << x + 1, 0, z + (i < n ? 0.0 : 0.3);
    m.rest.row(3 * i + 2) << x, 1, z;
    m.faces.row(i) << 3 * i, 3 * i + 1, 3 * i + 2;
    m.edges.row(3 * i) << 3 * i, 3 * i + 1;
    m.edges.row(3 * i + 1) << 3 * i, 3 * i + 2;
    m.edges.row(3 * i + 2) << 3 * i + 1, 3 * i + 2;
    for (int k = 0; k < 3; ++k) m.vertex_body.push_back(i < n ? 0 : 1);
  }
  Positions x1 = m.rest;
  for (int v = 3 * n; v < 6 * n; ++v) x1(v, 2) -= 3.0;
  double a1, a2;
  {
    ThreadLimit l(1);
    a1 = max_collision_free_step(m, m.rest, x1, -1.0, 0.1);
  }
  {
    ThreadLimit l(3);
    ForceParallel force;  // the pair loops are below their grain: force them through TBB
    a2 = max_collision_free_step(m, m.rest, x1, -1.0, 0.1);
  }
  CHECK(a1 == a2);
  CHECK(a1 < 1.0 / 3.0);  // the lowest falling vertex (z = 1) would reach z = 0 at alpha 1/3
  CHECK(a1 > 0.2);
}

TEST_CASE("shells keep their contact offset: the step stops a fraction of the gap beyond it", "[contact][ccd_step]") {
  // Half thicknesses 0.1 (the triangle's body) and 0.15 (the vertex's): offset
  // 0.25 between them, 0.1 and 0.15 to the ground (docs/design.md §3).
  CollisionMesh m = triangle_and_point();
  m.half_thickness = {0.1, 0.15};
  const double ratio = 0.1;
  {
    // The vertex 1 above the triangle drops by 2: its gap 0.75 may close to
    // ratio of itself, at z = 0.25 + 0.075 (alpha 0.3375); ACCD stops within
    // its stopping gap (a tenth of the rest) of that, after alpha 0.30375.
    Positions x1 = m.rest;
    x1.block(3, 0, 3, 3).col(2).array() -= 2.0;
    const double alpha = max_collision_free_step(m, m.rest, x1, std::nullopt, ratio);
    CHECK(alpha <= 0.3375);
    CHECK(alpha >= 0.30375);
    const Positions xa = m.rest + alpha * (x1 - m.rest);
    CHECK(xa(3, 2) >= 0.325);
  }
  {
    // Falling past the triangle's corner (1, 0, 0), 0.2 beside it: the boxes
    // never overlap, but the vertex would come within the offset.
    Positions x0 = m.rest;
    x0.row(3) << 1.2, 0, 1;
    Positions x1 = x0;
    x1(3, 2) = -1;
    const double alpha = max_collision_free_step(m, x0, x1, std::nullopt, ratio);
    const double d0 = std::sqrt(1.04);
    const Positions xa = x0 + alpha * (x1 - x0);
    const double d = ccd::point_triangle_distance(xa.row(3).transpose(), xa.row(0).transpose(), xa.row(1).transpose(),
                                                  xa.row(2).transpose());
    CHECK(alpha < 1.0);
    CHECK(d >= 0.25 + ratio * (d0 - 0.25));
  }
  {
    // The triangle, 1 above the ground, drops by 4: its gap 0.9 may close to
    // 0.09, at alpha (0.9 - 0.09) / 4 = 0.2025 (exact linear solve).
    Positions x0 = m.rest;
    x0.col(2).array() += 1.0;
    Positions x1 = x0;
    x1.col(2).array() -= 4.0;
    const double alpha = max_collision_free_step(m, x0, x1, 0.0, ratio);
    CHECK(alpha <= 0.2025);
    CHECK(alpha == Approx(0.2025).epsilon(1e-12));
  }
}
