#include <catch2/catch.hpp>

#include "eipc/certify/certify.hpp"
#include "eipc/certify/exact_ccd.hpp"
#include "eipc/certify/exact_tests.hpp"
#include "eipc/mesh/surface.hpp"
#include "eipc/certify/motion_check.hpp"
#include "eipc/certify/straight_motion.hpp"
#include "eipc/util/parallel.hpp"

#include <Eigen/Geometry>
#include "test_meshes.hpp"

#include <ctime>
#include <random>
#include <set>

using namespace eipc;
using namespace eipc::certify;
using test::Surface;

namespace {
std::vector<BodyState> states(const std::vector<Surface>& s) {
  std::vector<BodyState> b;
  for (const auto& x : s) b.push_back({&x.x, &x.faces, true});
  return b;
}
}  // namespace

TEST_CASE("point-triangle motion test", "[certify][ccd]") {
  const Vec3 a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
  SECTION("a point passing through the face collides") {
    CHECK(point_triangle_motion_test({Vec3(0.2, 0.2, 1), a, b, c}, {Vec3(0.2, 0.2, -1), a, b, c}) ==
          MotionVerdict::collision);
  }
  SECTION("a point passing beside the triangle is separated") {
    CHECK(point_triangle_motion_test({Vec3(0.6, 0.6, 1), a, b, c}, {Vec3(0.6, 0.6, -1), a, b, c}) ==
          MotionVerdict::separated);
  }
  SECTION("grazing 1e-9 above the face, sliding along it") {
    CHECK(point_triangle_motion_test({Vec3(-1, 0.2, 1e-9), a, b, c}, {Vec3(2, 0.2, 1e-9), a, b, c}) ==
          MotionVerdict::separated);
  }
  SECTION("sliding exactly in the face plane through the triangle is never certified") {
    CHECK(point_triangle_motion_test({Vec3(-1, 0.2, 0), a, b, c}, {Vec3(2, 0.2, 0), a, b, c}) !=
          MotionVerdict::separated);
  }
  SECTION("the triangle moving onto a static point is never certified") {
    const Vec3 d(0, 0, 2);
    CHECK(point_triangle_motion_test({Vec3(0.3, 0.3, 1), a, b, c}, {Vec3(0.3, 0.3, 1), a + d, b + d, c + d}) !=
          MotionVerdict::separated);
  }
}

TEST_CASE("edge-edge motion test", "[certify][ccd]") {
  SECTION("crossing edges are never certified") {
    CHECK(edge_edge_motion_test({Vec3(-1, 0, 1), Vec3(1, 0, 1), Vec3(0, -1, 0), Vec3(0, 1, 0)},
                          {Vec3(-1, 0, -1), Vec3(1, 0, -1), Vec3(0, -1, 0), Vec3(0, 1, 0)}) != MotionVerdict::separated);
  }
  SECTION("parallel coplanar edges of a flat grid stay separated") {
    const std::array<Vec3, 4> x{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 0)};
    CHECK(edge_edge_motion_test(x, x) == MotionVerdict::separated);
  }
  SECTION("edges passing 1e-9 apart") {
    CHECK(edge_edge_motion_test({Vec3(-1, 0, 1), Vec3(1, 0, 1), Vec3(0, -1, 1e-9), Vec3(0, 1, 1e-9)},
                          {Vec3(-1, 0, 1e-9 + 1e-9), Vec3(1, 0, 2e-9), Vec3(0, -1, 0), Vec3(0, 1, 0)}) ==
          MotionVerdict::separated);
  }
}

TEST_CASE("motion tests never certify a pair seen crossing by dense sampling", "[certify][ccd]") {
  // Random motions; a crossing is established (in double, with margins) when the
  // coplanarity volume changes sign between two samples while the primitives
  // overlap clearly in the plane. The motion test must never call those `separated`.
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int crossings = 0, certified = 0;
  for (int trial = 0; trial < 400; ++trial) {
    std::array<Vec3, 4> x0, x1;
    for (int i = 0; i < 4; ++i) {
      x0[i] = 0.5 * Vec3(u(rng), u(rng), u(rng));
      x1[i] = x0[i] + Vec3(u(rng), u(rng), u(rng));
    }
    auto at = [&](double t, int i) { return Vec3(x0[i] + t * (x1[i] - x0[i])); };
    // Point x[0] vs triangle x[1..3]; edge x[0]x[1] vs edge x[2]x[3].
    auto pt_volume = [&](double t) { return (at(t, 2) - at(t, 1)).cross(at(t, 3) - at(t, 1)).dot(at(t, 0) - at(t, 1)); };
    auto ee_volume = [&](double t) { return (at(t, 1) - at(t, 0)).cross(at(t, 3) - at(t, 2)).dot(at(t, 2) - at(t, 0)); };
    auto pt_inside = [&](double t) {
      const Vec3 a = at(t, 1), b = at(t, 2), c = at(t, 3), p = at(t, 0), n = (b - a).cross(c - a);
      const double nn = n.squaredNorm();
      return (b - a).cross(p - a).dot(n) > 1e-3 * nn && (c - b).cross(p - b).dot(n) > 1e-3 * nn &&
             (a - c).cross(p - c).dot(n) > 1e-3 * nn;
    };
    auto ee_cross = [&](double t) {
      const Vec3 p0 = at(t, 0), p1 = at(t, 1), q0 = at(t, 2), q1 = at(t, 3), n = (p1 - p0).cross(q1 - q0);
      auto side = [&](const Vec3& a, const Vec3& b, const Vec3& p) { return (b - a).cross(p - a).dot(n); };
      const double m = 1e-3 * n.squaredNorm();
      return side(p0, p1, q0) * side(p0, p1, q1) < -m * m && side(q0, q1, p0) * side(q0, q1, p1) < -m * m;
    };
    bool pt_hit = false, ee_hit = false;
    const int samples = 256;
    for (int k = 0; k < samples; ++k) {
      const double t0 = double(k) / samples, t1 = double(k + 1) / samples;
      pt_hit = pt_hit || (pt_volume(t0) * pt_volume(t1) < 0 && pt_inside(t0) && pt_inside(t1));
      ee_hit = ee_hit || (ee_volume(t0) * ee_volume(t1) < 0 && ee_cross(t0) && ee_cross(t1));
    }
    const MotionVerdict pt = point_triangle_motion_test(x0, x1), ee = edge_edge_motion_test(x0, x1);
    crossings += pt_hit + ee_hit;
    certified += (pt == MotionVerdict::separated) + (ee == MotionVerdict::separated);
    if (pt_hit) CHECK(pt == MotionVerdict::collision);
    if (ee_hit) CHECK(ee != MotionVerdict::separated);
  }
  CHECK(crossings > 20);
  CHECK(certified > 100);  // and it is not trivially refusing everything
}

TEST_CASE("continuous check: a body jumping through another between frames", "[certify][ccd]") {
  const Surface box = test::box({0, 0, 0}, {1, 1, 1});
  const Surface before = test::tet({0.4, 0.4, 1.5}, {0.6, 0.4, 1.5}, {0.4, 0.6, 1.5}, {0.4, 0.4, 1.7});
  const Surface after = test::translated(before, {0, 0, -3});  // now below the box: both frames clean
  const auto r = check_motion(states({box, before}), states({box, after}), std::nullopt);
  CHECK(r.status() == MotionStatus::collision);
  CHECK(r.collisions > 0);
  CHECK(r.inconclusive == 0);
  REQUIRE(!r.examples.empty());
}

TEST_CASE("continuous check certifies clean motions", "[certify][ccd]") {
  const Surface a = test::sphere({0, 0, 0}, 1, 2);
  SECTION("a static scene") {
    const Surface b = test::sphere({2 + 1e-9, 0, 0}, 1, 2);
    const auto r = check_motion(states({a, b}), states({a, b}), -1.0 - 1e-9);
    CHECK(r.status() == MotionStatus::certified);
  }
  SECTION("approaching to 1e-4 without touching, with a rotation-like shear") {
    const Surface b0 = test::sphere({2.5, 0, 0}, 1, 2);
    Surface b1 = test::sphere({2.0 + 1e-4, 0, 0}, 1, 2);
    const auto r = check_motion(states({a, b0}), states({a, b1}), std::nullopt);
    CHECK(r.status() == MotionStatus::certified);
  }
  SECTION("passing the ground is a collision") {
    const auto r = check_motion(states({a}), states({test::translated(a, {0, 0, -0.5})}), -1.2);
    CHECK(r.status() == MotionStatus::collision);
    CHECK(r.examples.front().kind == MotionPrimitive::point_ground);
  }
}

TEST_CASE("continuous check is identical for any thread count", "[certify][ccd]") {
  const Surface a = test::sphere({0, 0, 0}, 1, 2);
  const Surface b0 = test::sphere({2.2, 0, 0}, 1, 2), b1 = test::sphere({1.5, 0.3, 0}, 1, 2);  // ends overlapping
  MotionCheck r[2];
  for (int threads : {1, 2}) {
    ThreadLimit limit(threads);
    r[threads - 1] = check_motion(states({a, b0}), states({a, b1}), std::nullopt);
  }
  REQUIRE(r[0].status() != MotionStatus::certified);
  CHECK(r[0].collisions == r[1].collisions);
  CHECK(r[0].inconclusive == r[1].inconclusive);
  CHECK(r[0].vertex_face_candidates == r[1].vertex_face_candidates);
  CHECK(r[0].edge_edge_candidates == r[1].edge_edge_candidates);
  REQUIRE(r[0].examples.size() == r[1].examples.size());
  for (std::size_t i = 0; i < r[0].examples.size(); ++i) {
    CHECK(r[0].examples[i].a == r[1].examples[i].a);
    CHECK(r[0].examples[i].b == r[1].examples[i].b);
    CHECK(r[0].examples[i].t_lo == r[1].examples[i].t_lo);
  }
}

TEST_CASE("continuous check reports exactly the colliding pairs that all-pairs testing finds", "[certify][ccd]") {
  // Two spheres moving into each other: deciding every pair of primitives of the two
  // bodies without the broad phase must give the same collisions.
  const Surface a = test::sphere({0, 0, 0}, 1, 1);
  const Surface b0 = test::sphere({2.3, 0, 0}, 1, 1), b1 = test::sphere({1.6, 0.2, 0.1}, 1, 1);
  const std::vector<Surface> frame0{a, b0}, frame1{a, b1};
  const MotionCheck r = check_motion(states(frame0), states(frame1), std::nullopt, 10, true);
  REQUIRE(r.collisions > 0);
  CHECK(r.inconclusive == 0);
  CHECK(r.colliding.size() == r.collisions);
  std::size_t brute = 0;
  const Surface* bodies0[2] = {&a, &b0};
  const Surface* bodies1[2] = {&a, &b1};
  for (int pa = 0; pa < 2; ++pa)
    for (int pb = 0; pb < 2; ++pb) {
      if (pa == pb) continue;  // self pairs of a rigidly moving sphere cannot collide
      const Surface &s0 = *bodies0[pa], &s1 = *bodies1[pa], &t0 = *bodies0[pb], &t1 = *bodies1[pb];
      for (int f = 0; f < t0.faces.rows(); ++f)
        for (int v : eipc::surface_vertices(s0.faces)) {
          std::array<Vec3, 4> x0{s0.x.row(v).transpose()}, x1{s1.x.row(v).transpose()};
          for (int c = 0; c < 3; ++c) {
            x0[c + 1] = t0.x.row(t0.faces(f, c)).transpose();
            x1[c + 1] = t1.x.row(t1.faces(f, c)).transpose();
          }
          brute += decide_point_triangle(x0, x1).verdict == MotionVerdict::collision;
        }
    }
  // Edge-edge pairs between the two bodies (each undirected edge once).
  auto edges = [](const Surface& s) {
    std::set<std::pair<int, int>> e;
    for (int f = 0; f < s.faces.rows(); ++f)
      for (int k = 0; k < 3; ++k) {
        const int u = s.faces(f, k), w = s.faces(f, (k + 1) % 3);
        e.insert({std::min(u, w), std::max(u, w)});
      }
    return e;
  };
  for (const auto& ea : edges(a))
    for (const auto& eb : edges(b0)) {
      const std::array<Vec3, 4> x0{a.x.row(ea.first).transpose(), a.x.row(ea.second).transpose(),
                                   b0.x.row(eb.first).transpose(), b0.x.row(eb.second).transpose()};
      const std::array<Vec3, 4> x1{a.x.row(ea.first).transpose(), a.x.row(ea.second).transpose(),
                                   b1.x.row(eb.first).transpose(), b1.x.row(eb.second).transpose()};
      brute += decide_edge_edge(x0, x1).verdict == MotionVerdict::collision;
    }
  CHECK(r.collisions == brute);
  for (const MotionPair& p : r.colliding) {
    CHECK(0.0 <= p.t_lo);
    CHECK(p.t_lo <= p.t_hi);
    CHECK(p.t_hi <= 1.0);
  }
}

TEST_CASE("continuous check: contact exactly at the end of the motion is a collision", "[certify][ccd]") {
  // A tetrahedron's apex comes down exactly onto the box's top face at t = 1.
  const Surface box = test::box({0, 0, 0}, {1, 1, 1});
  const Surface before = test::tet({0.4, 0.4, 1.5}, {0.6, 0.4, 1.7}, {0.4, 0.6, 1.7}, {0.5, 0.5, 2.0});
  const Surface after = test::translated(before, {0, 0, -0.5});  // apex (0.4, 0.4, 1.0) on the face z = 1
  const auto r = check_motion(states({box, before}), states({box, after}), std::nullopt, 10, true);
  REQUIRE(r.status() == MotionStatus::collision);
  for (const MotionPair& p : r.colliding) CHECK(p.t_hi == 1.0);
  const auto stopped = check_motion(states({box, before}), states({box, test::translated(before, {0, 0, -0.4375})}),
                                    std::nullopt);
  CHECK(stopped.status() == MotionStatus::certified);
}

TEST_CASE("certify --continuous --threads 1 runs its motion check on one thread", "[certify][ccd]") {
  // Two spheres of 1,280 triangles moving into each other: thousands of candidates, in
  // many chunks of the narrow phase's tbb::parallel_for. With threads = 1 the calling
  // thread does the work (issue 62: TBB's workers took part, so `--jobs 2` ran four
  // threads on two cores). Observed as CPU time: the process's less the calling thread's
  // is what other threads spent. (TBB's workers may still look in for a moment, which
  // costs microseconds: a count of their visits would not tell.)
  auto cpu_seconds = [](clockid_t clock) {
    timespec t{};
    clock_gettime(clock, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
  };
  const Surface a = test::sphere({0, 0, 0}, 1, 3);
  const Surface b0 = test::sphere({2.2, 0, 0}, 1, 3), b1 = test::sphere({1.5, 0.3, 0}, 1, 3);
  const Trajectory t = test::trajectory_of({"a", "b"}, {{a, b0}, {a, b1}}, {0.0, 0.1});
  CertifyOptions options;
  options.continuous = true;
  options.threads = 1;
  const double process0 = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID), thread0 = cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
  const CertifyReport report = certify_trajectory(t, options);
  const double here = cpu_seconds(CLOCK_THREAD_CPUTIME_ID) - thread0;
  const double elsewhere = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - process0 - here;
  REQUIRE(report.motions.size() == 1);
  CHECK(report.motions[0].check.vertex_face_candidates + report.motions[0].check.edge_edge_candidates > 2000);
  INFO("CPU seconds: " << here << " on the calling thread, " << elsewhere << " on others");
  CHECK(elsewhere < 0.05 * here);
}
