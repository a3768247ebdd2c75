// AdditiveCcdOptions::start_fraction: keeping a fraction f of the distance at
// t = 0 answers exactly (same hit, same toi bit for bit) as passing
// min_distance + f * d(0) outright, which is how the solver's CCD used it.
#include <catch2/catch.hpp>

#include "eipc/ccd/additive_ccd.hpp"
#include "eipc/ccd/ccd_distance.hpp"

#include <array>
#include <random>

using namespace eipc;

TEST_CASE("CCD keeping a fraction of the start distance equals that min_distance given outright", "[contact][ccd]") {
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto rv = [&] { return Vec3(u(rng), u(rng), u(rng)); };
  int hits = 0, misses = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const bool vf = trial % 2 == 0;
    std::array<Vec3, 8> x;  // 4 points at t = 0, then at t = 1
    const Vec3 c0 = 0.5 * rv(), c1 = c0 + 0.6 * rv();
    for (int i = 0; i < 4; ++i) x[i] = ((vf ? i == 0 : i < 2) ? c0 : c1) + 0.3 * rv();
    for (int i = 0; i < 4; ++i) x[i + 4] = x[i] + ((vf ? i == 0 : i < 2) ? c1 - c0 : c0 - c1) + 0.3 * rv();
    const double d0 = vf ? ccd::point_triangle_distance(x[0], x[1], x[2], x[3])
                         : ccd::edge_edge_distance(x[0], x[1], x[2], x[3]);
    const double fraction = trial % 3 == 0 ? 0.2 : 0.9;
    const double min_distance = trial % 5 == 0 ? 1e-3 : 0.0;
    AdditiveCcdOptions keeping;
    keeping.start_fraction = fraction;
    auto query = [&](double m, const AdditiveCcdOptions& o, double& toi) {
      return vf ? point_triangle_ccd(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], m, 1.0, toi, o)
                : edge_edge_ccd(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], m, 1.0, toi, o);
    };
    double toi_outright = -1.0, toi_kept = -2.0;
    const bool hit = query(min_distance + fraction * d0, {}, toi_outright);
    REQUIRE(query(min_distance, keeping, toi_kept) == hit);
    if (hit) {
      REQUIRE(toi_kept == toi_outright);
      ++hits;
    } else {
      ++misses;
    }
  }
  CHECK(hits > 50);
  CHECK(misses > 50);
}
