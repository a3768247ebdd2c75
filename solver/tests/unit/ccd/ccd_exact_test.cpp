// CCD against exact arithmetic (CGAL Epeck, test only): degenerate cases and
// random queries built to touch exactly at a known dyadic time, plus random
// queries with a minimum separation checked at densely sampled times.
#include <catch2/catch.hpp>

#include "eipc/ccd/additive_ccd.hpp"

#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <Eigen/Geometry>

#include <array>
#include <random>

using namespace eipc;

namespace {

using K = CGAL::Exact_predicates_exact_constructions_kernel;
using FT = K::FT;
using Stencil = std::array<Vec3, 8>;  // 4 points at t = 0, then at t = 1

K::Point_3 exact_at(const Stencil& x, int i, double t) {
  const FT tt(t);
  auto c = [&](int k) { return FT(x[i][k]) + tt * (FT(x[i + 4][k]) - FT(x[i][k])); };
  return {c(0), c(1), c(2)};
}

/// Exact squared distance of the primitives at time t.
FT exact_sq_distance(bool vf, const Stencil& x, double t) {
  const auto a = exact_at(x, 0, t), b = exact_at(x, 1, t), c = exact_at(x, 2, t), d = exact_at(x, 3, t);
  if (vf) return CGAL::squared_distance(a, K::Triangle_3(b, c, d));
  return CGAL::squared_distance(K::Segment_3(a, b), K::Segment_3(c, d));
}

bool ccd(bool vf, const Stencil& x, double min_distance, double& toi) {
  if (vf) return point_triangle_ccd(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], min_distance, 1.0, toi);
  return edge_edge_ccd(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], min_distance, 1.0, toi);
}

/// Checks a query against exact distances at t = k / samples and at `extra`:
/// wherever the distance is <= min_distance, CCD must report a hit with toi <= t.
void check_conservative(bool vf, const Stencil& x, double min_distance, int samples, double extra = -1.0) {
  double toi = -1.0;
  const bool hit = ccd(vf, x, min_distance, toi);
  if (hit) {
    CHECK(toi >= 0.0);
    CHECK(toi <= 1.0);
  }
  const FT limit = FT(min_distance) * FT(min_distance);
  for (int k = 0; k <= samples + 1; ++k) {
    const double t = k <= samples ? double(k) / samples : extra;
    if (t < 0.0) continue;
    if (exact_sq_distance(vf, x, t) <= limit) {
      INFO((vf ? "vf" : "ee") << " query within " << min_distance << " at t = " << t);
      REQUIRE(hit);
      REQUIRE(toi <= t);
    }
  }
}

Stencil still(const std::array<Vec3, 4>& p) { return {p[0], p[1], p[2], p[3], p[0], p[1], p[2], p[3]}; }

Stencil moving(const std::array<Vec3, 4>& p, const std::array<Vec3, 4>& v) {
  Stencil s;
  for (int i = 0; i < 4; ++i) s[i] = p[i], s[i + 4] = p[i] + v[i];
  return s;
}

const Vec3 O(0, 0, 0), X(1, 0, 0), Y(0, 1, 0), Z(0, 0, 1);

}  // namespace

TEST_CASE("point-triangle CCD on degenerate contacts", "[contact][ccd][exact]") {
  const std::array<Vec3, 4> none{O, O, O, O};
  struct Case {
    const char* name;
    Stencil x;
    double contact;  // a time of exact contact, or -1
  };
  const Case cases[] = {
      {"through an edge midpoint", moving({Vec3(0.5, 0, 1), O, X, Y}, {-2 * Z, O, O, O}), 0.5},
      {"through a vertex", moving({Z, O, X, Y}, {-2 * Z, O, O, O}), 0.5},
      {"through the interior", moving({Vec3(0.25, 0.25, 1), O, X, Y}, {-2 * Z, O, O, O}), 0.5},
      {"in plane onto an edge", moving({Vec3(0.25, -1, 0), O, X, Y}, {2 * Y, O, O, O}), 0.5},
      {"in plane through a vertex", moving({Vec3(-1, 0, 0), O, X, Y}, {2 * X, O, O, O}), 0.5},
      {"starts on the triangle", moving({Vec3(0.2, 0.2, 0), O, X, Y}, {Z, O, O, O}), 0.0},
      {"ends on the triangle", moving({Vec3(0.2, 0.2, 1), O, X, Y}, {-Z, O, O, O}), 1.0},
      {"zero motion touching", still({Vec3(0.3, 0.3, 0), O, X, Y}), 0.0},
      {"zero motion apart", still({Vec3(0.3, 0.3, 0.1), O, X, Y}), -1.0},
      {"triangle grazes the point with its corner", moving({X, O - Z, X - Z, Y - Z}, {O, 2 * Z, 2 * Z, 2 * Z}), 0.5},
      {"common translation only", moving({Vec3(0.2, 0.2, 1e-3), O, X, Y}, {X, X, X, X}), -1.0},
      {"near miss outside an edge", moving({Vec3(0.5, -1e-9, 1), O, X, Y}, {-2 * Z, O, O, O}), -1.0},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    if (c.contact >= 0.0) REQUIRE(exact_sq_distance(true, c.x, c.contact) == 0);
    check_conservative(true, c.x, 0.0, 256, c.contact);
    double toi;
    if (c.contact == 0.0) {
      CHECK(ccd(true, c.x, 0.0, toi));
      CHECK(toi == 0.0);
    }
  }
  double toi;
  CHECK_FALSE(ccd(true, still({Vec3(0.3, 0.3, 0.1), O, X, Y}), 0.0, toi));
  CHECK_FALSE(ccd(true, moving({Vec3(0.2, 0.2, 1e-3), O, X, Y}, {X, X, X, X}), 0.0, toi));
  CHECK_FALSE(ccd(true, moving({Vec3(0.2, 0.2, 1), O, X, Y}, {Z, O, O, O}), 0.0, toi));  // moving away
}

TEST_CASE("edge-edge CCD on degenerate contacts", "[contact][ccd][exact]") {
  struct Case {
    const char* name;
    Stencil x;
    double contact;
  };
  const Case cases[] = {
      {"perpendicular crossing", moving({-X + Z, X + Z, -Y, Y}, {-2 * Z, -2 * Z, O, O}), 0.5},
      {"collinear sliding into each other", moving({O, X, 2 * X, 3 * X}, {O, O, -2 * X, -2 * X}), 0.5},
      {"parallel, approaching side by side", moving({O, X, Y, X + Y}, {O, O, -2 * Y, -2 * Y}), 0.5},
      {"parallel offset, overlapping at a point", moving({O, X, X + Y, 2 * X + Y}, {O, O, -2 * Y, -2 * Y}), 0.5},
      {"endpoint onto endpoint, coplanar", moving({O, X, X + Y, X + 2 * Y}, {O, O, -2 * Y, -2 * Y}), 0.5},
      {"endpoint through the interior (T)", moving({-X, X, Z, 2 * Z}, {O, O, -2 * Z, -2 * Z}), 0.5},
      {"start crossing", moving({-X, X, -Y, Y}, {Z, Z, O, O}), 0.0},
      {"end touching", moving({-X + Z, X + Z, -Y, Y}, {-Z, -Z, O, O}), 1.0},
      {"zero motion touching", still({-X, X, -Y, Y}), 0.0},
      {"zero motion apart", still({-X, X, -Y + Z, Y + Z}), -1.0},
      {"rotating edge sweeps through", moving({-X + 0.5 * Y, X - 0.5 * Y, Z - Y, Z + Y}, {Y, -Y, O, O}), -1.0},
      {"near miss past an endpoint", moving({-X, X, Vec3(1 + 1e-9, -1, 1), Vec3(1 + 1e-9, 1, 1)}, {O, O, -2 * Z, -2 * Z}),
       -1.0},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    if (c.contact >= 0.0) REQUIRE(exact_sq_distance(false, c.x, c.contact) == 0);
    check_conservative(false, c.x, 0.0, 256, c.contact);
    double toi;
    if (c.contact == 0.0) {
      CHECK(ccd(false, c.x, 0.0, toi));
      CHECK(toi == 0.0);
    }
  }
}

namespace {

/// Random dyadic numbers k / 64, |k| <= 64: sums and products below stay exact in double.
double dyadic(std::mt19937& rng) { return std::uniform_int_distribution<int>(-64, 64)(rng) / 64.0; }
Vec3 dyadic_vec(std::mt19937& rng) { return {dyadic(rng), dyadic(rng), dyadic(rng)}; }
double dyadic_fraction(std::mt19937& rng) { return std::uniform_int_distribution<int>(0, 16)(rng) / 16.0; }

/// Positions at contact time tc and velocities -> the stencil at t = 0 and t = 1 (exact).
Stencil from_contact(const std::array<Vec3, 4>& at_tc, const std::array<Vec3, 4>& vel, double tc) {
  Stencil s;
  for (int i = 0; i < 4; ++i) s[i] = at_tc[i] - tc * vel[i], s[i + 4] = at_tc[i] + (1.0 - tc) * vel[i];
  return s;
}

}  // namespace

TEST_CASE("random queries that touch exactly at a known time are caught", "[contact][ccd][exact]") {
  std::mt19937 rng(12345);
  int vf_hits = 0, ee_hits = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const double tc = dyadic_fraction(rng);
    std::array<Vec3, 4> vel{dyadic_vec(rng), dyadic_vec(rng), dyadic_vec(rng), dyadic_vec(rng)};
    if (trial % 5 == 0) vel[1] = vel[2] = vel[3] = vel[0];  // some pure translations (no relative motion)
    {
      // Point at a dyadic barycentric point of the triangle (edges and vertices included) at tc.
      const Vec3 t0 = dyadic_vec(rng), t1 = dyadic_vec(rng), t2 = dyadic_vec(rng);
      if ((t1 - t0).cross(t2 - t0).squaredNorm() == 0.0) continue;
      const double u = dyadic_fraction(rng), v = dyadic_fraction(rng) * (1.0 - u);
      const Vec3 p = t0 + u * (t1 - t0) + v * (t2 - t0);
      const Stencil x = from_contact({p, t0, t1, t2}, vel, tc);
      // Triangles degenerate at a sample time cannot be checked by CGAL: skip those.
      bool degenerate = false;
      for (int k = 0; k <= 64 && !degenerate; ++k) {
        const double t = k / 64.0;
        const Vec3 a = x[1] + t * (x[5] - x[1]), b = x[2] + t * (x[6] - x[2]), c = x[3] + t * (x[7] - x[3]);
        degenerate = (b - a).cross(c - a).squaredNorm() < 1e-12;
      }
      if (!degenerate) {
        REQUIRE(exact_sq_distance(true, x, tc) == 0);
        check_conservative(true, x, 0.0, 64, tc);
        ++vf_hits;
      }
    }
    {
      // Two segments through a common point c at tc (dyadic parameters along each).
      const Vec3 c = dyadic_vec(rng), ua = dyadic_vec(rng), ub = dyadic_vec(rng);
      if (ua.squaredNorm() == 0.0 || ub.squaredNorm() == 0.0) continue;
      const double sa = dyadic_fraction(rng), sb = dyadic_fraction(rng);
      const Stencil x = from_contact({c - sa * ua, c + (1 - sa) * ua, c - sb * ub, c + (1 - sb) * ub}, vel, tc);
      bool degenerate = false;
      for (int k = 0; k <= 64 && !degenerate; ++k) {
        const double t = k / 64.0;
        degenerate = ((x[0] + t * (x[4] - x[0])) - (x[1] + t * (x[5] - x[1]))).squaredNorm() == 0.0 ||
                     ((x[2] + t * (x[6] - x[2])) - (x[3] + t * (x[7] - x[3]))).squaredNorm() == 0.0;
      }
      if (!degenerate) {
        REQUIRE(exact_sq_distance(false, x, tc) == 0);
        check_conservative(false, x, 0.0, 64, tc);
        ++ee_hits;
      }
    }
  }
  CHECK(vf_hits > 200);
  CHECK(ee_hits > 200);
}

TEST_CASE("random queries keep the minimum separation before toi", "[contact][ccd][exact]") {
  std::mt19937 rng(777);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto rv = [&] { return Vec3(u(rng), u(rng), u(rng)); };
  int close = 0;
  for (int trial = 0; trial < 150; ++trial) {
    for (bool vf : {true, false}) {
      // Small primitives moving toward each other: many come close, some pass through.
      const Vec3 c0 = 0.5 * rv(), c1 = c0 + 0.6 * rv();
      Stencil x;
      x[0] = c0 + 0.3 * rv();
      x[1] = (vf ? c1 : c0) + 0.3 * rv();
      x[2] = c1 + 0.3 * rv();
      x[3] = c1 + 0.3 * rv();
      const Vec3 va = (c1 - c0) + 0.5 * rv(), vb = (c0 - c1) + 0.5 * rv();  // mostly approaching
      for (int i = 0; i < 4; ++i) x[i + 4] = x[i] + ((vf ? i == 0 : i < 2) ? va : vb) + 0.2 * rv();
      if (vf && (x[2] - x[1]).cross(x[3] - x[1]).norm() < 1e-3) continue;
      const double min_distance = trial % 2 ? 0.02 : 1e-3;
      double toi;
      const bool hit = ccd(vf, x, min_distance, toi);
      close += hit;
      check_conservative(vf, x, min_distance, 256);
      if (hit) {
        // Strictly before toi the separation holds exactly (samples of [0, toi]).
        for (int k = 0; k <= 32; ++k)
          CHECK(exact_sq_distance(vf, x, toi * k / 32.0) > FT(min_distance) * FT(min_distance));
      }
    }
  }
  CHECK(close > 20);
}

TEST_CASE("point-plane CCD is the exact linear solve, rounded down", "[contact][ccd]") {
  double toi;
  REQUIRE(point_plane_ccd(1.0, -1.0, 0.0, 0.0, 1.0, toi));
  CHECK(toi <= 0.5);
  CHECK(toi == Approx(0.5).epsilon(1e-14));
  REQUIRE(point_plane_ccd(1.0, -1.0, 0.0, 0.1, 1.0, toi));
  CHECK(toi <= 0.45);
  CHECK(toi == Approx(0.45).epsilon(1e-14));
  CHECK_FALSE(point_plane_ccd(1.0, -1.0, 0.0, 0.0, 0.4, toi));  // beyond tmax
  CHECK_FALSE(point_plane_ccd(1.0, 2.0, 0.0, 0.0, 1.0, toi));   // moving up
  CHECK_FALSE(point_plane_ccd(1.0, 1.0, 0.0, 0.0, 1.0, toi));   // still
  REQUIRE(point_plane_ccd(0.0, 1.0, 0.0, 0.0, 1.0, toi));       // starts on the plane
  CHECK(toi == 0.0);
  REQUIRE(point_plane_ccd(3.0, 1.0, 2.0, 0.0, 1.0, toi));       // reaches the plane at t = 1
  CHECK(toi <= 0.5);
}
