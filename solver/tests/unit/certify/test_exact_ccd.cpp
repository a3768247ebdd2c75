// The exact CCD decision (eipc/certify/exact_ccd.hpp): every published query
// decided as its exact ground truth, and random and near-degenerate motions
// decided as the independent exact oracle (contact_oracle.hpp) decides them,
// with the oracle's first contact time inside the reported bracket.
#include <catch2/catch.hpp>

#include "eipc/certify/exact_ccd.hpp"

#include "../ccd/published_queries.hpp"
#include "contact_oracle.hpp"

#include <iostream>
#include <random>

using namespace eipc;
using namespace eipc::certify;

namespace {

using Four = std::array<Vec3, 4>;

PairDecision decide(bool vf, const Four& x0, const Four& x1) {
  return vf ? decide_point_triangle(x0, x1) : decide_edge_edge(x0, x1);
}

/// Decision and oracle agree; a collision's bracket holds the oracle's first contact.
void check_against_oracle(bool vf, const Four& x0, const Four& x1, int& exact_path) {
  const PairDecision d = decide(vf, x0, x1);
  const test::OracleContact truth = vf ? test::oracle_point_triangle(x0, x1) : test::oracle_edge_edge(x0, x1);
  exact_path += d.exact_path;
  INFO((vf ? "vf" : "ee") << " x0 " << x0[0].transpose() << " | " << x0[1].transpose() << " | " << x0[2].transpose()
                          << " | " << x0[3].transpose() << "  x1 " << x1[0].transpose() << " | " << x1[1].transpose()
                          << " | " << x1[2].transpose() << " | " << x1[3].transpose());
  REQUIRE(d.verdict != MotionVerdict::inconclusive);
  REQUIRE((d.verdict == MotionVerdict::collision) == truth.touches);
  if (truth.touches) {
    INFO("bracket [" << d.t_lo << ", " << d.t_hi << "]");
    CHECK(d.t_lo <= d.t_hi);
    CHECK(truth.first_time_within(d.t_lo, d.t_hi));
  }
}

Vec3 random_grid_point(std::mt19937& rng, int range) {
  std::uniform_int_distribution<int> c(-range, range);
  return Vec3(c(rng), c(rng), c(rng));
}

}  // namespace

TEST_CASE("exact CCD decides every published query as its ground truth", "[certify][ccd][exact]") {
  const auto queries = test::load_published_queries();
  REQUIRE(queries.size() == 2444);
  int false_negatives = 0, false_positives = 0, exact_path = 0, bad_brackets = 0;
  for (const auto& q : queries) {
    const Four x0{q.x[0], q.x[1], q.x[2], q.x[3]}, x1{q.x[4], q.x[5], q.x[6], q.x[7]};
    const PairDecision d = decide(q.type == "vf", x0, x1);
    REQUIRE(d.verdict != MotionVerdict::inconclusive);
    const bool hit = d.verdict == MotionVerdict::collision;
    false_negatives += q.truth && !hit;
    false_positives += !q.truth && hit;
    exact_path += d.exact_path;
    if (hit) bad_brackets += !(0.0 <= d.t_lo && d.t_lo <= d.t_hi && d.t_hi <= 1.0);
  }
  std::cout << "[exact ccd, published queries] " << queries.size() << " decided, " << exact_path
            << " by the exact path\n";
  CHECK(false_negatives == 0);
  CHECK(false_positives == 0);
  CHECK(bad_brackets == 0);
}

TEST_CASE("the oracle agrees with the published ground truth", "[certify][ccd][exact][oracle]") {
  // The oracle is slow: every 12th query, both kinds and both answers among them.
  const auto queries = test::load_published_queries();
  int checked = 0, positives = 0;
  for (std::size_t i = 0; i < queries.size(); i += 12) {
    const auto& q = queries[i];
    const Four x0{q.x[0], q.x[1], q.x[2], q.x[3]}, x1{q.x[4], q.x[5], q.x[6], q.x[7]};
    const bool touches =
        (q.type == "vf" ? test::oracle_point_triangle(x0, x1) : test::oracle_edge_edge(x0, x1)).touches;
    INFO(q.source << " " << q.type);
    CHECK(touches == q.truth);
    ++checked;
    positives += q.truth;
  }
  CHECK(positives > 20);
  CHECK(checked - positives > 20);
}

TEST_CASE("exact CCD on degenerate motions with known answers", "[certify][ccd][exact]") {
  const Vec3 O(0, 0, 0), X(1, 0, 0), Y(0, 1, 0), Z(0, 0, 1);
  auto collides_first_at = [](bool vf, const Four& x0, const Four& x1, double t) {
    const PairDecision d = decide(vf, x0, x1);
    REQUIRE(d.verdict == MotionVerdict::collision);
    CHECK(d.t_lo <= t);
    CHECK(t <= d.t_hi);
  };
  auto separated = [](bool vf, const Four& x0, const Four& x1) {
    CHECK(decide(vf, x0, x1).verdict == MotionVerdict::separated);
  };
  SECTION("point resting on the face at t = 0") { collides_first_at(true, {0.25 * (X + Y), O, X, Y}, {Z, O, X, Y}, 0.0); }
  SECTION("point reaching the face exactly at t = 1") { collides_first_at(true, {Z + 0.25 * X, O, X, Y}, {0.25 * X, O, X, Y}, 1.0); }
  SECTION("point stopping 2^-40 short of the face") {
    separated(true, {Z + 0.25 * X, O, X, Y}, {std::ldexp(1.0, -40) * Z + 0.25 * X, O, X, Y});
  }
  SECTION("point sliding in the face plane through the triangle, coplanar throughout") {
    collides_first_at(true, {Vec3(-1, 0.25, 0), O, X, Y}, {Vec3(1, 0.25, 0), O, X, Y}, 0.5);
  }
  SECTION("point sliding in the face plane beside the triangle") {
    separated(true, {Vec3(-1, 1.5, 0), O, X, Y}, {Vec3(2, 1.5, 0), O, X, Y});
  }
  SECTION("point grazing a corner in the plane") {
    collides_first_at(true, {Vec3(-1, 1, 0), O, X, Y}, {Vec3(1, -1, 0), O, X, Y}, 0.5);
  }
  SECTION("triangle collapsing to a segment through the point") {
    // The point crosses the plane y = z of the triangle only when it is flat (t = 1/2), on its edge OX.
    collides_first_at(true, {Vec3(0.25, 1, -1), O, X, Y + Z}, {Vec3(0.25, -1, 1), O, X, -Y - Z}, 0.5);
  }
  SECTION("parallel edges sliding onto each other") {
    collides_first_at(false, {O + Z, X + Z, 0.5 * X, 3 * X}, {O - Z, X - Z, 0.5 * X, 3 * X}, 0.5);
    separated(false, {O + Z, X + Z, 0.5 * X, 3 * X}, {O + 2 * Z, X + 2 * Z, 0.5 * X, 3 * X});
  }
  SECTION("edges in the plane z = 0 crossing at t = 0, then pulled apart") {
    // Strictly crossing only at the start; the crossing alone (no end on the other edge) says it.
    collides_first_at(false, {-X, X, -Y, Y}, {-X + 3 * Y, X + 3 * Y, -Y, Y}, 0.0);
    separated(false, {-X + 3 * Y, X + 3 * Y, -Y, Y}, {-X + 4 * Y, X + 4 * Y, -Y, Y});
  }
  SECTION("collinear edges meeting end to end exactly at t = 1") {
    collides_first_at(false, {O, X, 3 * X, 4 * X}, {O, X, X, 2 * X}, 1.0);
  }
  SECTION("crossing edges, the contact at an irrational time") {
    // p rotates past q while moving: coplanarity is a non-trivial cubic.
    const PairDecision d = decide(false, {Vec3(-1, 0, 1), Vec3(1, 0, 1), Vec3(0, -1, 0), Vec3(0, 1, 0.5)},
                                  {Vec3(-1, 1, -1), Vec3(1, -1, -1.5), Vec3(0, -1, 0), Vec3(0, 1, 0.5)});
    CHECK(d.verdict == MotionVerdict::collision);
  }
  SECTION("non-finite input is the only inconclusive case") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK(decide(true, {Vec3(nan, 0, 0), O, X, Y}, {Z, O, X, Y}).verdict == MotionVerdict::inconclusive);
  }
}

TEST_CASE("exact CCD agrees with the exact oracle on random and near-degenerate motions",
          "[certify][ccd][exact][oracle]") {
  std::mt19937 rng(44);
  int exact_path = 0, queries = 0;
  for (bool vf : {true, false}) {
    // Small integer grids: shared planes, parallel and collinear edges, contact at the ends.
    for (int range : {1, 2}) {
      for (int k = 0; k < 60; ++k, ++queries) {
        Four x0, x1;
        for (int i = 0; i < 4; ++i) { x0[i] = random_grid_point(rng, range); x1[i] = random_grid_point(rng, range); }
        check_against_oracle(vf, x0, x1, exact_path);
      }
    }
    // Coplanar throughout (z = 0 at both ends).
    for (int k = 0; k < 40; ++k, ++queries) {
      Four x0, x1;
      for (int i = 0; i < 4; ++i) {
        x0[i] = random_grid_point(rng, 2); x1[i] = random_grid_point(rng, 2);
        x0[i].z() = x1[i].z() = 0;
      }
      check_against_oracle(vf, x0, x1, exact_path);
    }
    // Exact contact at t = 1/2 (dyadic, so exact in doubles), then nudged by +-2^-k in one coordinate.
    std::uniform_real_distribution<double> u(-1, 1);
    for (int k = 0; k < 40; ++k, ++queries) {
      Four x0, mid, x1;
      for (int i = 1; i < 4; ++i) {
        x0[i] = Vec3(u(rng), u(rng), u(rng));
        x1[i] = Vec3(u(rng), u(rng), u(rng));
        mid[i] = 0.5 * (x0[i] + x1[i]);
      }
      // A point of the other primitive at t = 1/2 on a corner, an edge or inside (rounded to a coarse grid).
      const double s = std::round(4 * (u(rng) + 1)) / 8, r = vf ? std::round(4 * (u(rng) + 1)) / 16 : 0.0;
      const Vec3 contact = vf ? Vec3(mid[1] + s * (mid[2] - mid[1]) + r * (mid[3] - mid[1]))
                              : Vec3(mid[2] + s * (mid[3] - mid[2]));
      x0[0] = Vec3(u(rng), u(rng), u(rng));
      x1[0] = 2 * contact - x0[0];  // passes through `contact` at t = 1/2 (up to rounding)
      if (k % 2) x1[0][k % 3] += std::ldexp(k % 4 == 1 ? 1.0 : -1.0, -20 - k);
      if (!vf) { x0[1] = x0[0] + Vec3(u(rng), u(rng), u(rng)); x1[1] = x1[0] + (x0[1] - x0[0]); }
      check_against_oracle(vf, x0, x1, exact_path);
    }
  }
  std::cout << "[exact ccd vs oracle] " << queries << " motions, " << exact_path << " by the exact path\n";
}

TEST_CASE("a point meeting a segment in a coordinate plane is decided by the filter as the oracle decides it",
          "[certify][ccd][exact][oracle]") {
  // A point and a segment (p and a triangle edge; an end point and the other edge) that keep
  // one coordinate exactly, sometimes with the fourth vertex in that plane too: the filter's
  // in-plane contact proof (axis_plane_contact.hpp) brackets what used to need the exact path.
  // The point crosses the segment's line near t = 1/3 (not a dyadic time: the filter's
  // intervals never end there) inside the segment, just past either end (by 2^-30 of its
  // length: no contact with it), on an end (a corner contact), or anywhere.
  std::mt19937 rng(59);
  std::uniform_int_distribution<int> grid(-64, 64);
  auto g = [&] { return grid(rng) / 64.0; };
  const std::array<double, 6> along{0.5, 0.25, -std::ldexp(1.0, -30), 1 + std::ldexp(1.0, -30), 0.0, 1.0};
  int exact_path = 0, filtered_collisions = 0, queries = 0;
  for (bool vf : {true, false}) {
    for (int k = 0; k < 48; ++k, ++queries) {
      const int axis = k % 3;
      const double c = g();
      Four x0, x1;
      for (int i = 0; i < 4; ++i) { x0[i] = Vec3(g(), g(), g()); x1[i] = Vec3(g(), g(), g()); }
      // vf: p = 0, segment 1-2; ee: p = 0 (end of edge 0-1), segment 2-3.
      const int a = vf ? 1 : 2, b = vf ? 2 : 3;
      const bool all_four = k % 4 == 3;
      for (int i = 0; i < 4; ++i)
        if (i == 0 || i == a || i == b || all_four) x0[i][axis] = x1[i][axis] = c;
      const Vec3 third_a = x0[a] + (x1[a] - x0[a]) / 3, third_b = x0[b] + (x1[b] - x0[b]) / 3;
      const double s = k % 7 == 6 ? g() : along[k % along.size()];
      const Vec3 target = third_a + s * (third_b - third_a);
      x1[0] = x0[0] + 3 * (target - x0[0]);  // p passes through `target` at t = 1/3 (up to rounding)
      x1[0][axis] = c;
      const int before = exact_path;
      check_against_oracle(vf, x0, x1, exact_path);
      filtered_collisions += exact_path == before && decide(vf, x0, x1).verdict == MotionVerdict::collision;
    }
  }
  std::cout << "[in-plane contacts vs oracle] " << queries << " motions, " << exact_path << " by the exact path, "
            << filtered_collisions << " collisions bracketed by the filter\n";
  CHECK(filtered_collisions >= queries / 4);  // the in-plane proof is exercised
}

TEST_CASE("two edges moving in a coordinate plane are decided by the filter as the oracle decides them",
          "[certify][ccd][exact][oracle]") {
  // All four ends keep one coordinate exactly (rings of a mesh at equal heights): the
  // coplanarity cubic is zero throughout, so only the edges' 2-D proofs
  // (edges_apart_in_plane, meets_in_plane) keep such pairs from the exact path.
  std::mt19937 rng(61);
  std::uniform_int_distribution<int> grid(-64, 64);
  auto g = [&] { return grid(rng) / 64.0; };
  int exact_path = 0, queries = 0;
  for (int k = 0; k < 200; ++k, ++queries) {
    const int axis = k % 3;
    const double c = g();
    Four x0, x1;
    for (int i = 0; i < 4; ++i) {
      x0[i] = Vec3(g(), g(), g());
      x1[i] = x0[i] + 0.25 * Vec3(g(), g(), g());  // moves of up to a quarter of the extent: some touch
      x0[i][axis] = x1[i][axis] = c;
    }
    check_against_oracle(false, x0, x1, exact_path);
  }
  // Crossing strictly throughout (one edge slides along the other's direction): touching at
  // t = 0, though no end ever meets the other edge.
  for (int k = 0; k < 3; ++k, ++queries) {
    const Four x0{Vec3(-1, 0, 0.5), Vec3(1, 0, 0.5), Vec3(0, -1, 0.5), Vec3(0.25, 1, 0.5)};
    Four x1 = x0;
    for (int i : {0, 1}) x1[i] += Vec3(0.5 * k, 0.125, 0);
    check_against_oracle(false, x0, x1, exact_path);
  }
  std::cout << "[edges in a coordinate plane vs oracle] " << queries << " motions, " << exact_path
            << " by the exact path\n";
  CHECK(exact_path <= queries / 10);  // the 2-D proofs are exercised
}

TEST_CASE("a collision's bracket is narrowed by the filter where the pair is not coplanar before it",
          "[certify][ccd][exact]") {
  // Three pairs of the published rod-twist frames 3036 -> 3037 (Sample-Scalable-CCD-Data)
  // whose brackets the filter could only narrow to [0.086, 0.094], [0.9375, 0.9385] and
  // [0, 0.0625] by separating directions (the primitives are too close for any), so the
  // exact path had to; "never coplanar on the left half" narrows them in doubles.
  const double c[3][24] = {
      {0x1.4d6e12d4b5e66p-4, 0x1.bccf0d5d76214p-4, 0x1.37b51b3910b0cp-3, 0x1.4a566fa2f9f21p-4, 0x1.c12b677c7aba7p-4,
       0x1.38faebe819f97p-3, 0x1.4da00bf7b2529p-4, 0x1.b6e2973acaa0ap-4, 0x1.3713ba667a657p-3, 0x1.677df5cbff243p-4,
       0x1.a25f8739df9dp-4,  0x1.2b47e0d762598p-3, 0x1.4eca24ef00963p-4, 0x1.c9f655e285301p-4, 0x1.37d1448b2b498p-3,
       0x1.4c605da5a09eep-4, 0x1.c882a1da9b1fp-4,  0x1.3b4b9e41138f8p-3, 0x1.4dfbe06aaa5c4p-4, 0x1.bee18ce322454p-4,
       0x1.3901eebad4a24p-3, 0x1.66224492d5f1fp-4, 0x1.a89e9076ab2b5p-4, 0x1.2e1148345e46ep-3},
      {0x1.4d6e12d4b5e66p-4, 0x1.bccf0d5d76214p-4, 0x1.37b51b3910b0cp-3, 0x1.669a127d1ef1bp-4, 0x1.afecf45d9b69ap-4,
       0x1.2a9777afa45acp-3, 0x1.48d972d301a2ep-4, 0x1.c983ebee5a432p-4, 0x1.38bc5068421f1p-3, 0x1.4a566fa2f9f21p-4,
       0x1.c12b677c7aba7p-4, 0x1.38faebe819f97p-3, 0x1.4eca24ef00963p-4, 0x1.c9f655e285301p-4, 0x1.37d1448b2b498p-3,
       0x1.639992add9944p-4, 0x1.b64293bf4db23p-4, 0x1.2c8f25b196ee1p-3, 0x1.4850a3ba3bc2dp-4, 0x1.d0c745e369eb5p-4,
       0x1.3a86b4b17cffap-3, 0x1.4c605da5a09eep-4, 0x1.c882a1da9b1fp-4,  0x1.3b4b9e41138f8p-3},
      {0x1.79345de3e3ba8p-4, 0x1.7c4da5d87d5bbp-4, 0x1.30eebcec04ce7p-3, 0x1.78da96baacec5p-4, 0x1.8ae7e6aa28ca9p-4,
       0x1.352c2d1e22419p-3, 0x1.86587ab8a2d49p-4, 0x1.74238868b40dfp-4, 0x1.2d08bdde0a179p-3, 0x1.78dd21e14e468p-4,
       0x1.7a857e09d9f3bp-4, 0x1.307723fcfe40ap-3, 0x1.7bb0d9be10796p-4, 0x1.84dc28d6f5eeap-4, 0x1.34c951e93bd8ep-3,
       0x1.7a25dffbab76cp-4, 0x1.924b733c3f8a8p-4, 0x1.38a8b18910929p-3, 0x1.86da841abcdfcp-4, 0x1.7a9c8dd0bfef8p-4,
       0x1.315c839d4ad35p-3, 0x1.79d1e37ea7a85p-4, 0x1.81e1a3e600f4cp-4, 0x1.340e01603acdfp-3}};
  int narrowed = 0;
  for (const auto& q : c) {
    Four x0, x1;
    for (int i = 0; i < 4; ++i) {
      x0[i] = Vec3(q[3 * i], q[3 * i + 1], q[3 * i + 2]);
      x1[i] = Vec3(q[12 + 3 * i], q[12 + 3 * i + 1], q[12 + 3 * i + 2]);
    }
    for (const bool vf : {true, false}) {
      std::array<double, 2> bracket{0.0, 1.0};
      const MotionVerdict filtered = vf ? point_triangle_motion_test(x0, x1, exact_ccd_filter_budget, &bracket)
                                        : edge_edge_motion_test(x0, x1, exact_ccd_filter_budget, &bracket);
      if (filtered != MotionVerdict::collision) continue;
      INFO((vf ? "vf" : "ee") << " bracket [" << bracket[0] << ", " << bracket[1] << "]");
      CHECK(bracket[1] - bracket[0] <= exact_ccd_bracket_width);
      narrowed += bracket[1] - bracket[0] <= exact_ccd_bracket_width;
      int exact_path = 0;
      check_against_oracle(vf, x0, x1, exact_path);  // and the oracle's first contact is inside it
      CHECK(exact_path == 0);
    }
  }
  CHECK(narrowed == 3);
}
