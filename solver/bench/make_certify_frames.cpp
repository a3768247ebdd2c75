// make_certify_frames DIR [LEVELS]: writes the large frame pair of large_frames.hpp
// as DIR/frame_0.obj and DIR/frame_1.obj (one `o` object per body), the input of
// `eipc certify DIR --continuous` for the measurements in docs/certify.md.
#include "large_frames.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace {

void write_frame(const std::string& path, const eipc::certify::bench::LargeFrames& f,
                 const std::vector<eipc::certify::test::Surface>& bodies) {
  std::ofstream out(path);
  long offset = 1;
  char buf[96];
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    out << "o " << f.names[b] << "\n";
    const auto& s = bodies[b];
    for (int i = 0; i < s.x.rows(); ++i) {
      std::snprintf(buf, sizeof buf, "v %.17g %.17g %.17g\n", s.x(i, 0), s.x(i, 1), s.x(i, 2));
      out << buf;
    }
    for (int r = 0; r < s.faces.rows(); ++r)
      out << "f " << offset + s.faces(r, 0) << ' ' << offset + s.faces(r, 1) << ' ' << offset + s.faces(r, 2) << "\n";
    offset += s.x.rows();
  }
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: make_certify_frames DIR [LEVELS]\n";
    return 2;
  }
  const std::string dir = argv[1];
  const int levels = argc > 2 ? std::atoi(argv[2]) : 5;
  std::filesystem::create_directories(dir);
  const auto f = eipc::certify::bench::large_frames(levels);
  write_frame(dir + "/frame_0.obj", f, f.from);
  write_frame(dir + "/frame_1.obj", f, f.to);
  long triangles = 0;
  for (const auto& s : f.from) triangles += s.faces.rows();
  std::cout << dir << ": 2 frames, " << f.names.size() << " bodies, " << triangles << " triangles\n";
  return 0;
}
