// The friction rounds' convergence measure and the stick/slide bookkeeping of
// Newton's chord steps.
#include <catch2/catch.hpp>

#include "eipc/friction/friction_regime.hpp"
#include "eipc/friction/friction_rounds.hpp"

using namespace eipc;

namespace {

FrictionContact ground_contact(int vertex, double normal_force) {
  FrictionContact c;
  c.kind = ContactKind::point_ground;
  c.vertices = {vertex, -1, -1, -1};
  c.weights = {1, 0, 0, 0};
  c.basis << 1, 0, 0, 1, 0, 0;  // (ex, ey)
  c.normal_force = normal_force;
  c.mu = 0.5;
  return c;
}

FrictionSet set_of(std::vector<FrictionContact> contacts) {
  FrictionSet s;
  s.contacts = std::move(contacts);
  s.epsv_h = 1e-5;
  return s;
}

}  // namespace

TEST_CASE("relative normal force change: largest change over the largest force, contacts matched by vertices",
          "[friction]") {
  const FrictionSet before = set_of({ground_contact(0, 1.0), ground_contact(1, 2.0)});
  CHECK(relative_normal_force_change(before, before) == 0.0);
  // Same contacts in another order, one force changed by 0.1 of the largest (4).
  const FrictionSet after = set_of({ground_contact(1, 4.0), ground_contact(0, 1.4)});
  CHECK(relative_normal_force_change(before, after) == Approx(2.0 / 4.0));
  const FrictionSet small_change = set_of({ground_contact(1, 2.0), ground_contact(0, 1.02)});
  CHECK(relative_normal_force_change(before, small_change) == Approx(0.02 / 2.0));
  // A new contact counts with its whole force, and so does one that opened.
  const FrictionSet added = set_of({ground_contact(0, 1.0), ground_contact(1, 2.0), ground_contact(2, 0.5)});
  CHECK(relative_normal_force_change(before, added) == Approx(0.5 / 2.0));
  const FrictionSet opened = set_of({ground_contact(1, 2.0)});
  CHECK(relative_normal_force_change(before, opened) == Approx(1.0 / 2.0));
  // From no contact to contact (a landing): a full change.
  CHECK(relative_normal_force_change(set_of({}), before) == 1.0);
  CHECK(relative_normal_force_change(before, set_of({})) == 1.0);
  CHECK(relative_normal_force_change(set_of({}), set_of({})) == 0.0);
}

TEST_CASE("a contact that stuck and now slides is found", "[friction]") {
  const FrictionSet set = set_of({ground_contact(0, 1.0), ground_contact(1, 1.0)});
  Positions x_n = Positions::Zero(2, 3);
  Positions x = x_n;
  x(0, 0) = 0.5e-5;  // inside eps_v h = 1e-5: sticks
  x(1, 1) = 3e-5;    // slides
  const std::vector<FrictionContactKey> sticking = sticking_contacts(x, x_n, set);
  REQUIRE(sticking.size() == 1);
  CHECK(sticking[0].second[0] == 0);
  CHECK_FALSE(any_started_sliding(sticking, x, x_n, set));
  Positions later = x;
  later(0, 0) = 2e-5;  // vertex 0 slides now
  CHECK(any_started_sliding(sticking, later, x_n, set));
  CHECK_FALSE(any_started_sliding({}, later, x_n, set));
}
