// A large frame pair for measuring `eipc certify --continuous`: four closed
// flattened icospheres ("pancakes", 20 * 4^levels triangles each; 81,920 at
// level 5) stacked along z. Between the frames one pancake moves down into the
// one below (a band of truly colliding pairs), one comes down to 1e-5 above its
// neighbour while turning (many pairs close, none touching), two stay still.
// Used by bench_certify.cpp and written as OBJ frames by make_certify_frames.
#pragma once

#include "../tests/unit/certify/test_meshes.hpp"

#include <string>
#include <vector>

namespace eipc::certify::bench {

struct LargeFrames {
  std::vector<std::string> names;
  std::vector<test::Surface> from, to;
};

inline test::Surface pancake(const Vec3& center, double angle, int levels) {
  test::Surface s = test::sphere(Vec3::Zero(), 1.0, levels);
  const double c = std::cos(angle), sn = std::sin(angle);
  for (int i = 0; i < s.x.rows(); ++i) {
    const Vec3 p(s.x(i, 0), s.x(i, 1), 0.05 * s.x(i, 2));
    s.x.row(i) = (center + Vec3(c * p.x() - sn * p.y(), sn * p.x() + c * p.y(), p.z())).transpose();
  }
  return s;
}

inline LargeFrames large_frames(int levels = 5) {
  LargeFrames f;
  f.names = {"base", "sinking", "middle", "hovering"};
  f.from = {pancake({0, 0, 0}, 0, levels), pancake({0, 0, 0.102}, 0, levels), pancake({0, 0, 0.3}, 0, levels),
            pancake({0, 0, 0.402}, 0, levels)};
  f.to = {f.from[0], pancake({0.003, 0, 0.099}, 0, levels), f.from[2], pancake({0, 0, 0.40001}, 0.005, levels)};
  return f;
}

}  // namespace eipc::certify::bench
