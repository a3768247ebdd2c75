// Regression: two parallel coplanar edges whose coordinates carry translation
// round-off were classified EA_EB (line-line) and got distance 0, because
// |ea x eb|^2 was computed as a c - b^2, whose cancellation error exceeded the
// parallel threshold. Found by a free-fall simulation stalling in its line search.
#include "eipc/distance/distance.hpp"

#include <catch2/catch.hpp>
#include <cmath>

using namespace eipc;

TEST_CASE("translated parallel edges keep their true distance", "[contact][distance]") {
  const Vec3 a0(0.020000000000000046, 0.039999999999999994, 1.1370569999999998);
  const Vec3 a1(0.070000000000000062, 0.089999999999999969, 1.1370569999999998);
  const Vec3 b0(0.070000000000000048, 0.039999999999999966, 1.1370569999999998);
  const Vec3 b1(0.12000000000000005, 0.089999999999999969, 1.1370569999999998);
  const EdgeEdgeDistanceType type = edge_edge_distance_type(a0, a1, b0, b1);
  CHECK(type != EdgeEdgeDistanceType::EA_EB);
  CHECK(std::sqrt(edge_edge_distance_sq(a0, a1, b0, b1, type)) == Approx(0.05 / std::sqrt(2.0)).epsilon(1e-12));
}
