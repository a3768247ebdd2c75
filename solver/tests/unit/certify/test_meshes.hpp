// Small closed surfaces for the certify tests and benchmark.
#pragma once

#include "eipc/common.hpp"
#include "eipc/io/trajectory.hpp"

#include <Eigen/Geometry>

#include <map>
#include <utility>

namespace eipc::certify::test {

struct Surface {
  Positions x;
  Tris faces;
};

/// Axis-aligned box [lo, hi], 8 vertices, 12 outward triangles.
inline Surface box(const Vec3& lo, const Vec3& hi) {
  Surface s;
  s.x.resize(8, 3);
  for (int i = 0; i < 8; ++i)
    s.x.row(i) << (i & 1 ? hi.x() : lo.x()), (i & 2 ? hi.y() : lo.y()), (i & 4 ? hi.z() : lo.z());
  s.faces.resize(12, 3);
  s.faces << 0, 2, 1, 1, 2, 3,  // z = lo
      4, 5, 6, 5, 7, 6,         // z = hi
      0, 1, 4, 1, 5, 4,         // y = lo
      2, 6, 3, 3, 6, 7,         // y = hi
      0, 4, 2, 2, 4, 6,         // x = lo
      1, 3, 5, 3, 7, 5;         // x = hi
  return s;
}

/// Tetrahedron surface with the given corners.
inline Surface tet(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  Surface s;
  s.x.resize(4, 3);
  s.x << a.transpose(), b.transpose(), c.transpose(), d.transpose();
  s.faces.resize(4, 3);
  s.faces << 0, 2, 1, 0, 1, 3, 1, 2, 3, 0, 3, 2;
  return s;
}

/// Icosphere: 20 * 4^levels triangles.
inline Surface sphere(const Vec3& center, double r, int levels) {
  const double t = (1.0 + std::sqrt(5.0)) / 2.0;
  std::vector<Vec3> v = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
                         {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
  for (auto& p : v) p.normalize();
  std::vector<std::array<int, 3>> f = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                       {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                       {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                       {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  for (int l = 0; l < levels; ++l) {
    std::map<std::pair<int, int>, int> mid;
    auto midpoint = [&](int a, int b) {
      const auto key = std::minmax(a, b);
      auto it = mid.find(key);
      if (it != mid.end()) return it->second;
      v.push_back((v[a] + v[b]).normalized());
      return mid[key] = static_cast<int>(v.size()) - 1;
    };
    std::vector<std::array<int, 3>> g;
    for (const auto& [a, b, c] : f) {
      const int ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
      g.push_back({a, ab, ca});
      g.push_back({b, bc, ab});
      g.push_back({c, ca, bc});
      g.push_back({ab, bc, ca});
    }
    f = std::move(g);
  }
  Surface s;
  s.x.resize(static_cast<long>(v.size()), 3);
  for (std::size_t i = 0; i < v.size(); ++i) s.x.row(i) = (center + r * v[i]).transpose();
  s.faces.resize(static_cast<long>(f.size()), 3);
  for (std::size_t i = 0; i < f.size(); ++i) s.faces.row(i) << f[i][0], f[i][1], f[i][2];
  return s;
}

inline Surface translated(Surface s, const Vec3& d) {
  s.x.rowwise() += d.transpose();
  return s;
}

/// A trajectory of the named bodies (their triangles from the first frame) through
/// `frames`, frame k at times[k] seconds.
inline Trajectory trajectory_of(const std::vector<std::string>& names, const std::vector<std::vector<Surface>>& frames,
                                const std::vector<double>& times) {
  Trajectory t;
  for (std::size_t b = 0; b < names.size(); ++b) {
    TrajectoryBody body;
    body.name = names[b];
    body.rest = frames.at(0).at(b).x;
    body.surface = frames[0][b].faces;
    t.header.bodies.push_back(body);
  }
  for (std::size_t k = 0; k < frames.size(); ++k) {
    Frame f;
    f.time = times.at(k);
    f.step = static_cast<long>(k);
    for (const Surface& s : frames[k]) f.positions.push_back(s.x);
    t.frames.push_back(f);
  }
  return t;
}

}  // namespace eipc::certify::test
