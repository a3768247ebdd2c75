// Depth measurement of intersecting frames (penetration.hpp, docs/certify.md "Depth").
#include <catch2/catch.hpp>

#include "eipc/certify/certify.hpp"
#include "eipc/certify/closest_points.hpp"
#include "eipc/certify/exact_tests.hpp"
#include "eipc/certify/penetration.hpp"
#include "test_meshes.hpp"

#include <nlohmann/json.hpp>

#include <limits>
#include <sstream>

using namespace eipc;
using namespace eipc::certify;
using test::Surface;

namespace {

/// check_frame, then the measurement (as certify_trajectory does for failed frames).
std::vector<PairPenetration> measure(const std::vector<Surface>& s, std::optional<double> ground = std::nullopt) {
  std::vector<BodyState> b;
  for (const auto& x : s) b.push_back({&x.x, &x.faces, is_closed_surface(x.faces)});
  const FrameCheck check = check_frame(b, ground);
  REQUIRE_FALSE(check.ok());
  return measure_penetration(b, check, ground);
}

/// A 10 cm cube and a 4 cm cube resting on its top face, pushed `depth` into it.
/// Nearest face of the big cube to the small one's bottom corners: the top (their
/// lateral distance is 3 cm > depth).
Surface big_cube() { return test::box({0, 0, 0}, {0.1, 0.1, 0.1}); }
Surface small_cube(double depth) { return test::box({0.03, 0.03, 0.1 - depth}, {0.07, 0.07, 0.14 - depth}); }

/// Both cubes as one body: its surface crosses itself.
Surface merged(const Surface& a, const Surface& b) {
  Surface m = a;
  m.x.conservativeResize(a.x.rows() + b.x.rows(), 3);
  m.x.bottomRows(b.x.rows()) = b.x;
  m.faces.conservativeResize(a.faces.rows() + b.faces.rows(), 3);
  m.faces.bottomRows(b.faces.rows()) = b.faces.array() + static_cast<int>(a.x.rows());
  return m;
}

/// Frames 0..n-1 at t = 0.01 k with the small cube pushed depths[k] into the big one.
Trajectory pushed_cubes(const std::vector<double>& depths) {
  Trajectory tr;
  const Surface big = big_cube(), small = small_cube(0.0);
  tr.header.dt = 0.01;
  tr.header.bodies.push_back({"table", "full", false, big.x, big.faces, {}, std::nullopt});
  tr.header.bodies.push_back({"cube", "full", false, small.x, small.faces, {}, std::nullopt});
  for (std::size_t k = 0; k < depths.size(); ++k) {
    Frame f;
    f.step = static_cast<long>(k);
    f.time = 0.01 * static_cast<double>(k);
    f.positions = {big.x, small_cube(depths[k]).x};
    tr.frames.push_back(f);
  }
  return tr;
}

}  // namespace

TEST_CASE("a cube pushed into another cube: inside vertices and depth of that pair", "[certify][depth]") {
  for (const double depth : {0.005, 0.012}) {
    CAPTURE(depth);
    const auto pairs = measure({big_cube(), small_cube(depth)});
    REQUIRE(pairs.size() == 1);
    const PairPenetration& p = pairs[0];
    CHECK(p.body_a == 0);
    CHECK(p.body_b == 1);
    CHECK(p.triangle_pairs > 0);
    REQUIRE(p.a_in_b.has_value());
    REQUIRE(p.b_in_a.has_value());
    CHECK(*p.a_in_b == 0);  // no corner of the big cube is in the small one
    CHECK(*p.b_in_a == 4);  // the small cube's four bottom corners
    CHECK(p.undecided == 0);
    REQUIRE(p.deepest.has_value());
    CHECK(p.deepest->body == 1);
    CHECK(p.deepest->into == 0);
    CHECK(p.deepest->vertex < 4);  // a bottom corner (test::box numbers them 0..3)
    CHECK(p.depth() == Approx(depth).margin(1e-15));
  }
}

TEST_CASE("a body wholly inside another: every vertex counted, depth to the container's surface",
          "[certify][depth]") {
  const Surface box = test::box({0, 0, 0}, {1, 1, 1});
  const Surface t = test::tet({0.45, 0.5, 0.5}, {0.2, 0.5, 0.5}, {0.3, 0.8, 0.5}, {0.3, 0.5, 0.85});
  const auto pairs = measure({box, t});
  REQUIRE(pairs.size() == 1);
  CHECK(pairs[0].triangle_pairs == 0);
  CHECK(pairs[0].containment == 1);
  CHECK(*pairs[0].b_in_a == 4);
  CHECK(*pairs[0].a_in_b == 0);
  // Corner depths (distance to the nearest face of the unit box): 0.45, 0.2, 0.2, 0.15.
  REQUIRE(pairs[0].deepest.has_value());
  CHECK(pairs[0].depth() == Approx(0.45).margin(1e-15));
  CHECK(pairs[0].deepest->vertex == 0);
}

TEST_CASE("a self-intersecting body is its own pair, with the crossing depth", "[certify][depth]") {
  const Surface folded = merged(big_cube(), small_cube(0.005));
  const Surface far_away = test::box({1, 1, 1}, {1.1, 1.1, 1.1});
  const auto pairs = measure({far_away, folded});
  REQUIRE(pairs.size() == 1);
  const PairPenetration& p = pairs[0];
  CHECK(p.body_a == 1);
  CHECK(p.body_b == 1);
  CHECK(p.triangle_pairs > 0);
  CHECK_FALSE(p.a_in_b.has_value());  // "inside itself" is not defined
  CHECK_FALSE(p.b_in_a.has_value());
  REQUIRE(p.deepest.has_value());
  CHECK(p.deepest->body == 1);
  CHECK(p.deepest->vertex >= 8);  // a corner of the part that was the small cube
  CHECK(p.deepest->vertex < 12);  // ... one of its bottom corners
  CHECK(p.deepest->triangle >= 0);
  CHECK(p.deepest->triangle < 12);  // behind a triangle of the big part
  CHECK(p.depth() == Approx(0.005).margin(1e-15));

  // Reported as its own pair, in text and JSON.
  Trajectory tr;
  tr.header.bodies.push_back({"folded", "full", false, folded.x, folded.faces, {}, std::nullopt});
  Frame f;
  f.time = 0.5;
  f.positions = {folded.x};
  tr.frames.push_back(f);
  const CertifyReport r = certify_trajectory(tr);
  std::ostringstream json_out, text;
  print_report_json(r, json_out);
  print_report(r, text);
  const auto j = nlohmann::json::parse(json_out.str());
  REQUIRE(j["summary"]["pairs"].size() == 1);
  const auto& s = j["summary"]["pairs"][0];
  CHECK(s["kind"] == "self");
  CHECK(s["body_a"] == "folded");
  CHECK(s["body_b"] == "folded");
  CHECK(s["max_inside_vertices"].is_null());
  CHECK(s["max_depth"].get<double>() == Approx(0.005).margin(1e-15));
  CHECK(j["summary"]["first_intersection_time"] == 0.5);
  CHECK(text.str().find("folded (self): ") != std::string::npos);
  CHECK(text.str().find("past its triangle #") != std::string::npos);
}

TEST_CASE("a body below the ground is paired with the ground", "[certify][depth]") {
  const auto pairs = measure({test::box({0, 0, -0.002}, {1, 1, 1})}, 0.0);
  REQUIRE(pairs.size() == 1);
  CHECK(pairs[0].body_b == kGround);
  CHECK(*pairs[0].a_in_b == 4);
  CHECK(pairs[0].depth() == Approx(0.002).margin(1e-15));
}

TEST_CASE("certify_trajectory: first intersection time, per-pair summary, JSON and text", "[certify][depth]") {
  SECTION("a clean trajectory has no intersecting frame and no depth") {
    const CertifyReport r = certify_trajectory(pushed_cubes({-0.001, -0.002}));
    CHECK(r.all_clear());
    CHECK(r.intersecting_frames() == 0);
    CHECK(r.pair_summaries().empty());
    for (const auto& f : r.frames) CHECK(f.pairs.empty());
    std::ostringstream out;
    print_report_json(r, out);
    const auto j = nlohmann::json::parse(out.str());
    CHECK(j["summary"]["intersecting_frames"] == 0);
    CHECK(j["summary"]["max_depth"].is_null());
    CHECK(j["summary"]["first_intersection_time"].is_null());
    CHECK(j["summary"]["pairs"].empty());
  }
  SECTION("pushed in at t = 0.02, deepest at t = 0.03") {
    CertifyReport r = certify_trajectory(pushed_cubes({-0.001, -1e-9, 0.003, 0.005, 0.001}));
    r.source = "cubes";
    CHECK(r.failed_frames() == 3);
    CHECK(r.intersecting_frames() == 3);
    const auto s = r.pair_summaries();
    REQUIRE(s.size() == 1);
    CHECK(s[0].frames == 3);
    CHECK(s[0].first_frame == 2);
    CHECK(s[0].first_time == Approx(0.02));
    CHECK(s[0].deepest_frame == 3);
    REQUIRE(s[0].max_inside.has_value());
    CHECK(*s[0].max_inside == 4);
    REQUIRE(s[0].deepest.has_value());
    CHECK(s[0].deepest->depth == Approx(0.005).margin(1e-15));

    std::ostringstream json_out;
    print_report_json(r, json_out);
    const auto j = nlohmann::json::parse(json_out.str());
    const auto& sum = j["summary"];
    CHECK(sum["intersecting_frames"] == 3);
    CHECK(sum["first_intersection_frame"] == 2);
    CHECK(sum["first_intersection_time"].get<double>() == Approx(0.02));
    CHECK(sum["max_depth"].get<double>() == Approx(0.005).margin(1e-15));
    REQUIRE(sum["pairs"].size() == 1);
    CHECK(sum["pairs"][0]["kind"] == "bodies");
    CHECK(sum["pairs"][0]["body_a"] == "table");
    CHECK(sum["pairs"][0]["body_b"] == "cube");
    CHECK(sum["pairs"][0]["deepest"]["frame"] == 3);
    CHECK(sum["pairs"][0]["deepest"]["body"] == "cube");
    CHECK(sum["pairs"][0]["deepest"]["into"] == "table");
    const auto& frame3 = j["frames"][3]["pairs"];
    REQUIRE(frame3.size() == 1);
    CHECK(frame3[0]["b_in_a"] == 4);
    CHECK(frame3[0]["a_in_b"] == 0);
    CHECK(frame3[0]["depth"].get<double>() == Approx(0.005).margin(1e-15));
    CHECK(j["frames"][0]["pairs"].empty());

    std::ostringstream text;
    print_report(r, text);
    CHECK(text.str().find("frame 3  t = 0.03 s") != std::string::npos);
    CHECK(text.str().find("4 vertices of cube inside table") != std::string::npos);
    CHECK(text.str().find("deepest 0.005 m") != std::string::npos);
    CHECK(text.str().find("table / cube: 3 frames, first frame 2  t = 0.02 s") != std::string::npos);
  }
}

TEST_CASE("tree-accelerated location and distance agree with brute force", "[certify][depth]") {
  // A coarse sphere through a finer one: many vertices of each inside the other,
  // at many different depths. Brute force: side_of_closed_surface over every
  // triangle, and the nearest point over every triangle.
  const Surface a = test::sphere({0, 0, 0}, 1.0, 3), b = test::sphere({0.9, 0.13, -0.07}, 0.8, 2);
  const auto pairs = measure({a, b});
  REQUIRE(pairs.size() == 1);
  const PairPenetration& p = pairs[0];
  auto brute = [](const Surface& from, const Surface& into, std::size_t& inside) {
    double deepest = 0.0;
    for (int v = 0; v < from.x.rows(); ++v) {
      const Vec3 x = from.x.row(v).transpose();
      const PointSide side = side_of_closed_surface(x, into.x, into.faces);
      REQUIRE(side != PointSide::undecided);
      if (side == PointSide::outside) continue;
      ++inside;
      double d = std::numeric_limits<double>::infinity();
      for (int f = 0; f < into.faces.rows(); ++f) {
        const Vec3 c = closest_point_on_triangle(x, into.x.row(into.faces(f, 0)).transpose(),
                                                 into.x.row(into.faces(f, 1)).transpose(),
                                                 into.x.row(into.faces(f, 2)).transpose());
        d = std::min(d, (c - x).norm());
      }
      deepest = std::max(deepest, d);
    }
    return deepest;
  };
  std::size_t a_in_b = 0, b_in_a = 0;
  const double deepest_a = brute(a, b, a_in_b), deepest_b = brute(b, a, b_in_a);
  CHECK(a_in_b > 10);
  CHECK(b_in_a > 10);
  CHECK(*p.a_in_b == a_in_b);
  CHECK(*p.b_in_a == b_in_a);
  CHECK(p.depth() > 0.1);
  CHECK(p.depth() == Approx(std::max(deepest_a, deepest_b)).margin(1e-14));
}
