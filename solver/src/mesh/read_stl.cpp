#include "eipc/mesh/read_stl.hpp"

#include "byte_reader.hpp"
#include "text_file.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <vector>

namespace eipc {
namespace {

using mesh_detail::ByteReader;
using mesh_detail::TextFile;

/// Joins corners with exactly equal coordinates into vertices, in order of first appearance.
class CornerJoiner {
public:
  int vertex_of(const Vec3& p) {
    Key key;
    for (int k = 0; k < 3; ++k) {
      const double c = p[k] == 0.0 ? 0.0 : p[k];  // -0 joins +0: the same point
      std::memcpy(&key[k], &c, sizeof c);
    }
    const auto [it, inserted] = index_.emplace(key, static_cast<int>(points_.size()));
    if (inserted) points_.push_back(p);
    return it->second;
  }
  Positions positions() const {
    Positions x(static_cast<Eigen::Index>(points_.size()), 3);
    for (std::size_t i = 0; i < points_.size(); ++i) x.row(static_cast<Eigen::Index>(i)) = points_[i].transpose();
    return x;
  }

private:
  using Key = std::array<std::uint64_t, 3>;
  struct Hash {
    std::size_t operator()(const Key& k) const {
      std::size_t h = k[0];
      for (int i = 1; i < 3; ++i) h = h * 0x9E3779B97F4A7C15ull ^ (k[i] + (h >> 29));
      return h;
    }
  };
  std::unordered_map<Key, int, Hash> index_;
  std::vector<Vec3> points_;
};

bool is_binary_stl(const TextFile& f) {
  const std::string_view all = f.rest();
  if (all.size() < 84) return false;
  ByteReader count(f.path(), all.substr(80, 4), false, 80);
  const std::uint32_t n = count.read<std::uint32_t>("the triangle count");
  return all.size() == 84 + 50ull * n;
}

void read_binary(const TextFile& f, CornerJoiner& join, std::vector<std::array<int, 3>>& triangles) {
  ByteReader in(f.path(), f.rest(), false);
  in.skip(80, "the header");
  const std::uint32_t n = in.read<std::uint32_t>("the triangle count");
  triangles.reserve(n);
  for (std::uint32_t t = 0; t < n; ++t) {
    in.skip(12, "a normal");
    std::array<int, 3> tri{};
    for (int c = 0; c < 3; ++c) {
      Vec3 p;
      for (int k = 0; k < 3; ++k) p[k] = static_cast<double>(in.read<float>("a corner"));
      if (!p.allFinite()) in.fail("triangle " + std::to_string(t) + " has a non-finite coordinate");
      tri[c] = join.vertex_of(p);
    }
    in.skip(2, "the attribute byte count");
    triangles.push_back(tri);
  }
}

void expect(TextFile& f, std::string_view word) {
  const std::string_view t = f.next_token(std::string(word).c_str());
  if (t != word) f.fail("expected '" + std::string(word) + "', found '" + std::string(t) + "'");
}

void read_ascii(TextFile& f, CornerJoiner& join, std::vector<std::array<int, 3>>& triangles) {
  std::string_view line;
  const std::string_view all = f.rest();
  if (f.at_end() || f.next_token("solid") != "solid") {
    std::string as_binary;
    if (all.size() >= 84)
      as_binary = "; as binary it would need 84 + 50 x " +
                  std::to_string(ByteReader(f.path(), all.substr(80, 4), false, 80).read<std::uint32_t>("count")) +
                  " bytes (the header's triangle count)";
    f.fail_file("not an STL file: no ASCII 'solid', and not a binary STL of " + std::to_string(all.size()) + " bytes" +
                as_binary);
  }
  f.next_raw_line(line);  // the solid's name
  while (!f.at_end()) {
    const std::string_view word = f.next_token("facet or endsolid");
    if (word == "endsolid") {
      f.next_raw_line(line);  // its name
      if (f.at_end()) break;
      expect(f, "solid");  // the next solid
      f.next_raw_line(line);
      continue;
    }
    if (word != "facet") f.fail("expected 'facet' or 'endsolid', found '" + std::string(word) + "'");
    expect(f, "normal");
    for (int k = 0; k < 3; ++k) f.to_double(f.next_token("normal"), "facet normal");
    expect(f, "outer");
    expect(f, "loop");
    std::array<int, 3> tri{};
    for (int c = 0; c < 3; ++c) {
      const std::string_view v = f.next_token("vertex");
      if (v != "vertex") f.fail(v == "endloop" ? "facet has fewer than 3 vertices" : "expected 'vertex', found '" + std::string(v) + "'");
      Vec3 p;
      for (int k = 0; k < 3; ++k) p[k] = f.to_double(f.next_token("vertex coordinate"), "vertex coordinate");
      tri[c] = join.vertex_of(p);
    }
    const std::string_view end = f.next_token("endloop");
    if (end == "vertex") f.fail("facet has more than 3 vertices");
    if (end != "endloop") f.fail("expected 'endloop', found '" + std::string(end) + "'");
    expect(f, "endfacet");
    triangles.push_back(tri);
  }
}

}  // namespace

StlSurface read_stl(const std::string& path) {
  TextFile f(path);
  CornerJoiner join;
  std::vector<std::array<int, 3>> triangles;
  if (is_binary_stl(f)) read_binary(f, join, triangles);
  else read_ascii(f, join, triangles);
  if (triangles.empty()) f.fail_file("no triangles in the STL file");
  StlSurface s;
  s.mesh.vertices = join.positions();
  s.mesh.faces.resize(static_cast<Eigen::Index>(triangles.size()), 3);
  for (std::size_t t = 0; t < triangles.size(); ++t)
    for (int k = 0; k < 3; ++k) s.mesh.faces(static_cast<Eigen::Index>(t), k) = triangles[t][k];
  s.corners = 3 * static_cast<long long>(triangles.size());
  return s;
}

}  // namespace eipc
