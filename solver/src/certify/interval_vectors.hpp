// 3-vectors of outward-rounded intervals (CGAL::Interval_nt_advanced) for the motion
// filters: valid only under CGAL::Protect_FPU_rounding, which the public filter calls set.
#pragma once

#include "eipc/common.hpp"

#include <CGAL/Interval_nt.h>

namespace eipc::certify::intervals {

using I = CGAL::Interval_nt_advanced;

struct IV3 {
  I x, y, z;
  const I& operator[](int k) const { return k == 0 ? x : k == 1 ? y : z; }
};
// Inlined: these few interval operations are most of the filter's time, and GCC at -O2
// otherwise keeps each a call.
[[gnu::always_inline]] inline IV3 operator-(const IV3& a, const IV3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
[[gnu::always_inline]] inline IV3 operator+(const IV3& a, const IV3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
[[gnu::always_inline]] inline IV3 operator*(const I& s, const IV3& a) { return {s * a.x, s * a.y, s * a.z}; }
[[gnu::always_inline]] inline I dot(const IV3& a, const IV3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
[[gnu::always_inline]] inline IV3 cross(const IV3& a, const IV3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

/// Enclosure of x0 + t (x1 - x0) for t in T.
[[gnu::always_inline]] inline IV3 position(const Vec3& x0, const Vec3& x1, const I& t) {
  auto c = [&](int k) { return I(x0[k]) + t * (I(x1[k]) - I(x0[k])); };
  return {c(0), c(1), c(2)};
}

}  // namespace eipc::certify::intervals
