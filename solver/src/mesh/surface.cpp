#include "eipc/mesh/surface.hpp"

#include <algorithm>
#include <array>

namespace eipc {

namespace {
/// Outward faces of a positively oriented tet (a,b,c,d) = local (0,1,2,3): normals point away
/// from the opposite vertex, since (b-a)x(c-a) points towards d when det(b-a, c-a, d-a) > 0.
constexpr int kOutwardFaces[4][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
}  // namespace

Tris boundary_faces(const Tets& tets) {
  struct Face {
    std::array<int, 3> key;  // sorted vertex indices
    int id;                  // 4 * tet + local face
  };
  std::vector<Face> all;
  all.reserve(static_cast<std::size_t>(tets.rows()) * 4);
  for (Eigen::Index t = 0; t < tets.rows(); ++t)
    for (int f = 0; f < 4; ++f) {
      std::array<int, 3> key = {tets(t, kOutwardFaces[f][0]), tets(t, kOutwardFaces[f][1]), tets(t, kOutwardFaces[f][2])};
      std::sort(key.begin(), key.end());
      all.push_back({key, static_cast<int>(4 * t + f)});
    }
  std::sort(all.begin(), all.end(), [](const Face& x, const Face& y) { return x.key != y.key ? x.key < y.key : x.id < y.id; });
  std::vector<int> owners;  // ids of faces whose key occurs exactly once
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i + 1;
    while (j < all.size() && all[j].key == all[i].key) ++j;
    if (j == i + 1) owners.push_back(all[i].id);
    i = j;
  }
  std::sort(owners.begin(), owners.end());
  Tris out(static_cast<Eigen::Index>(owners.size()), 3);
  for (std::size_t i = 0; i < owners.size(); ++i) {
    const int t = owners[i] / 4, f = owners[i] % 4;
    for (int k = 0; k < 3; ++k) out(static_cast<Eigen::Index>(i), k) = tets(t, kOutwardFaces[f][k]);
  }
  return out;
}

Edges unique_edges(const Tris& faces) {
  std::vector<std::array<int, 2>> edges;
  edges.reserve(static_cast<std::size_t>(faces.rows()) * 3);
  for (Eigen::Index f = 0; f < faces.rows(); ++f)
    for (int k = 0; k < 3; ++k) {
      const int a = faces(f, k), b = faces(f, (k + 1) % 3);
      edges.push_back({std::min(a, b), std::max(a, b)});
    }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  Edges out(static_cast<Eigen::Index>(edges.size()), 2);
  for (std::size_t i = 0; i < edges.size(); ++i) {
    out(static_cast<Eigen::Index>(i), 0) = edges[i][0];
    out(static_cast<Eigen::Index>(i), 1) = edges[i][1];
  }
  return out;
}

std::vector<int> surface_vertices(const Tris& faces) {
  std::vector<int> v(faces.data(), faces.data() + faces.size());
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

SurfaceMesh extract_surface(const TetMesh& mesh, std::vector<int>* original_index) {
  const Tris faces = boundary_faces(mesh.tets);
  const std::vector<int> keep = surface_vertices(faces);
  std::vector<int> new_index(static_cast<std::size_t>(mesh.vertices.rows()), -1);
  SurfaceMesh s;
  s.vertices.resize(static_cast<Eigen::Index>(keep.size()), 3);
  for (std::size_t i = 0; i < keep.size(); ++i) {
    new_index[static_cast<std::size_t>(keep[i])] = static_cast<int>(i);
    s.vertices.row(static_cast<Eigen::Index>(i)) = mesh.vertices.row(keep[i]);
  }
  s.faces.resize(faces.rows(), 3);
  for (Eigen::Index f = 0; f < faces.rows(); ++f)
    for (int k = 0; k < 3; ++k) s.faces(f, k) = new_index[static_cast<std::size_t>(faces(f, k))];
  if (original_index) *original_index = keep;
  return s;
}

}  // namespace eipc
