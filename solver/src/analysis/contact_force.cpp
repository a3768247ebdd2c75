#include "eipc/analysis/contact_force.hpp"

namespace eipc {
namespace {

/// +1 where the stored pair force acts on `body` (it is the pair's first body), -1 where
/// it acts on the partner (the body feels the opposite), 0 where `body` is not in the pair.
double sign_on(const BodyPairForce& p, int body) { return p.body_a == body ? 1.0 : p.body_b == body ? -1.0 : 0.0; }

void add(ContactForce& sum, const BodyPairForce& p, double sign) {
  sum.normal += sign * p.normal;
  sum.friction += sign * p.friction;
  sum.contacts += p.pairs;
}

}  // namespace

ContactForce force_between(const Frame& frame, int on, int from) {
  ContactForce f;
  for (const BodyPairForce& p : frame.pair_forces)
    if (sign_on(p, on) != 0.0 && sign_on(p, from) != 0.0) add(f, p, sign_on(p, on));
  return f;
}

ContactForce force_on(const Frame& frame, int on) {
  ContactForce f;
  for (const BodyPairForce& p : frame.pair_forces)
    if (sign_on(p, on) != 0.0) add(f, p, sign_on(p, on));
  return f;
}

}  // namespace eipc
