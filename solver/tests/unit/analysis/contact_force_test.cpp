// The force on a body from the per-pair sums a frame stores: stored pair (a, b) acts on a,
// b feels its opposite; the ground is body -1.
#include "eipc/analysis/contact_force.hpp"

#include <catch2/catch.hpp>

using namespace eipc;

TEST_CASE("contact force on a body from one other, from all others and from the ground", "[analysis]") {
  Frame f;
  f.pair_forces = {{0, kGroundPlane, Vec3(0, 0, 3), Vec3(0.5, 0, 0), 4},  // ground on 0
                   {0, 1, Vec3(0, 0, -1), Vec3(0, 0.25, 0), 2},          // 1 on 0
                   {1, 2, Vec3(1, 0, 0), Vec3::Zero(), 1}};               // 2 on 1
  const ContactForce on1_from0 = force_between(f, 1, 0), on0_from1 = force_between(f, 0, 1);
  CHECK(on0_from1.normal == Vec3(0, 0, -1));
  CHECK(on1_from0.normal == Vec3(0, 0, 1));
  CHECK(on1_from0.friction == Vec3(0, -0.25, 0));
  CHECK(on1_from0.contacts == 2);
  CHECK(force_between(f, 0, 2).contacts == 0);  // not in contact: zero
  CHECK(force_between(f, 0, 2).total() == Vec3::Zero());
  CHECK(force_between(f, kGroundPlane, 0).total() == Vec3(-0.5, 0, -3));  // on the ground

  const ContactForce on1 = force_on(f, 1);  // from 0 and from 2
  CHECK(on1.normal == Vec3(1, 0, 1));
  CHECK(on1.friction == Vec3(0, -0.25, 0));
  CHECK(on1.contacts == 3);
  CHECK(force_on(f, 0).total() == Vec3(0.5, 0.25, 2));  // ground and 1
  CHECK(force_on(f, 2).total() == Vec3(-1, 0, 0));
}
