#include "axis_plane_contact.hpp"

#include "interval_vectors.hpp"

namespace eipc::certify {
namespace {

using namespace intervals;

/// Do vertices i, j, k have exactly the same coordinate `axis` at t = 0 and at t = 1?
/// Then x(t)_axis = c for every t, for all three (straight motion between equal values).
bool share_plane(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1, int i, int j, int k, int axis) {
  const double c = x0[i][axis];
  return x1[i][axis] == c && x0[j][axis] == c && x1[j][axis] == c && x0[k][axis] == c && x1[k][axis] == c;
}

/// 2-D orientation of (p, a, b) in the coordinates other than `axis`.
I orientation(const IV3& p, const IV3& a, const IV3& b, int axis) {
  const int i = (axis + 1) % 3, j = (axis + 2) % 3;
  return (a[i] - p[i]) * (b[j] - p[j]) - (a[j] - p[j]) * (b[i] - p[i]);
}

}  // namespace

PlanarPointSegments planar_point_segments(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1,
                                          bool point_triangle) {
  static constexpr std::array<std::array<int, 3>, 3> triangle{{{0, 1, 2}, {0, 2, 3}, {0, 3, 1}}};
  static constexpr std::array<std::array<int, 3>, 4> edges{{{0, 2, 3}, {1, 2, 3}, {2, 0, 1}, {3, 0, 1}}};
  PlanarPointSegments out;
  auto consider = [&](const std::array<int, 3>& t) {
    for (int axis = 0; axis < 3; ++axis)
      if (share_plane(x0, x1, t[0], t[1], t[2], axis)) {
        out.items[out.size++] = {t[0], t[1], t[2], axis};
        return;  // one plane suffices for the proof
      }
  };
  if (point_triangle) for (const auto& t : triangle) consider(t);
  else for (const auto& t : edges) consider(t);
  return out;
}

int shared_plane_axis(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1) {
  for (int axis = 0; axis < 3; ++axis)
    if (share_plane(x0, x1, 0, 1, 2, axis) && share_plane(x0, x1, 0, 1, 3, axis)) return axis;
  return -1;
}

bool meets_in_plane(const std::array<Vec3, 4>& x0, const std::array<Vec3, 4>& x1, const PlanarPointSegment& s,
                    double t0, double t1) {
  auto at = [&](const I& t) {
    return std::array<IV3, 3>{position(x0[s.point], x1[s.point], t), position(x0[s.a], x1[s.a], t),
                              position(x0[s.b], x1[s.b], t)};
  };
  const auto [p0, a0, b0] = at(I(t0));
  const auto [p1, a1, b1] = at(I(t1));
  const I o0 = orientation(p0, a0, b0, s.axis), o1 = orientation(p1, a1, b1, s.axis);
  if (!((o0.sup() < 0 && o1.inf() > 0) || (o0.inf() > 0 && o1.sup() < 0))) return false;
  // Zero orientation in the plane: p on the line ab (the axis components of the
  // differences are exactly zero). Strictly between a and b: on the open segment.
  const auto [p, a, b] = at(I(t0, t1));
  const IV3 ab = b - a;
  return dot(p - a, ab).inf() > 0 && dot(b - p, ab).inf() > 0;
}

}  // namespace eipc::certify
