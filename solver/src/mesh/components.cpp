#include "eipc/mesh/components.hpp"

#include <numeric>

namespace eipc {
namespace {

int find_root(std::vector<int>& parent, int v) {
  while (parent[v] != v) {
    parent[v] = parent[parent[v]];  // path halving
    v = parent[v];
  }
  return v;
}

}  // namespace

std::vector<SurfaceComponent> surface_components(const Tris& faces, int num_vertices) {
  std::vector<int> parent(static_cast<std::size_t>(num_vertices));
  std::iota(parent.begin(), parent.end(), 0);
  for (Eigen::Index t = 0; t < faces.rows(); ++t)
    for (int k = 1; k < 3; ++k) {
      const int a = find_root(parent, faces(t, 0)), b = find_root(parent, faces(t, k));
      if (a != b) parent[std::max(a, b)] = std::min(a, b);  // the root is the smallest vertex
    }
  std::vector<char> used(parent.size(), 0);
  for (Eigen::Index t = 0; t < faces.rows(); ++t)
    for (int k = 0; k < 3; ++k) used[faces(t, k)] = 1;
  std::vector<int> component_of_root(parent.size(), -1);
  std::vector<SurfaceComponent> out;
  for (int v = 0; v < num_vertices; ++v) {  // increasing v: components by their first vertex
    if (!used[v]) continue;
    const int r = find_root(parent, v);
    if (component_of_root[r] < 0) {
      component_of_root[r] = static_cast<int>(out.size());
      out.emplace_back();
    }
    out[component_of_root[r]].vertices.push_back(v);
  }
  for (Eigen::Index t = 0; t < faces.rows(); ++t)
    out[component_of_root[find_root(parent, faces(t, 0))]].triangles.push_back(static_cast<int>(t));
  return out;
}

}  // namespace eipc
