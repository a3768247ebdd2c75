#include "eipc/certify/shell_gap.hpp"

#include "eipc/broad_phase/broad_phase.hpp"
#include "eipc/distance/edge_edge.hpp"
#include "eipc/distance/point_triangle.hpp"
#include "eipc/mesh/surface.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>

namespace eipc::certify {

std::vector<double> shell_thicknesses(const Trajectory& trajectory) {
  const auto& bodies = trajectory.header.bodies;
  std::vector<double> thickness(bodies.size(), 0.0);
  if (trajectory.header.scene_json.empty()) return thickness;  // a dataset: no scene, no shells
  const nlohmann::json scene = nlohmann::json::parse(trajectory.header.scene_json, nullptr, false);
  if (!scene.is_object() || !scene.contains("bodies") || !scene["bodies"].is_array()) return thickness;
  std::map<std::string, double> by_name;
  for (const auto& b : scene["bodies"]) {
    if (!b.is_object() || !b.contains("name") || !b.contains("material")) continue;
    const auto& m = b["material"];
    if (m.is_object() && m.value("model", "") == "stvk_shell" && m.contains("thickness") && m["thickness"].is_number())
      by_name[b["name"].get<std::string>()] = m["thickness"].get<double>();
  }
  for (std::size_t i = 0; i < bodies.size(); ++i)
    if (const auto it = by_name.find(bodies[i].name); it != by_name.end()) thickness[i] = it->second;
  return thickness;
}

std::optional<ShellGap> smallest_shell_gap(const Trajectory& trajectory, const std::vector<double>& thickness,
                                           std::optional<double> ground_height, double reach) {
  if (std::none_of(thickness.begin(), thickness.end(), [](double t) { return t > 0.0; })) return std::nullopt;
  const auto& bodies = trajectory.header.bodies;
  // The surfaces' vertices as one collision mesh, with the shells' half thicknesses.
  CollisionMesh mesh;
  std::vector<std::vector<int>> vertices(bodies.size());  // per body: its surface vertices
  std::vector<Eigen::RowVector3i> faces;
  std::vector<Eigen::RowVector3d> rest;
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    std::map<int, int> local;
    const Tris& s = bodies[b].surface;
    for (Eigen::Index f = 0; f < s.rows(); ++f)
      for (int k = 0; k < 3; ++k) local.emplace(s(f, k), 0);
    for (auto& [v, c] : local) {
      c = int(mesh.vertex_body.size());
      mesh.vertex_body.push_back(int(b));
      vertices[b].push_back(v);
      rest.push_back(bodies[b].rest.row(v));
    }
    for (Eigen::Index f = 0; f < s.rows(); ++f) faces.emplace_back(local[s(f, 0)], local[s(f, 1)], local[s(f, 2)]);
    mesh.half_thickness.push_back(0.5 * thickness[b]);
  }
  mesh.rest.resize(Eigen::Index(rest.size()), 3);
  for (std::size_t v = 0; v < rest.size(); ++v) mesh.rest.row(Eigen::Index(v)) = rest[v];
  mesh.faces.resize(Eigen::Index(faces.size()), 3);
  for (std::size_t f = 0; f < faces.size(); ++f) mesh.faces.row(Eigen::Index(f)) = faces[f];
  mesh.edges = unique_edges(mesh.faces);
  const auto is_shell = [&](int v) { return mesh.half_thickness[std::size_t(mesh.vertex_body[std::size_t(v)])] > 0.0; };

  ShellGap best;
  best.reach = reach;
  // Every pair whose gap is below `reach` is closer than this.
  const double search = reach + mesh.max_contact_offset();
  Positions x(Eigen::Index(mesh.vertex_body.size()), 3);
  for (std::size_t k = 0; k < trajectory.frames.size(); ++k) {
    Eigen::Index row = 0;
    for (std::size_t b = 0; b < bodies.size(); ++b)
      for (int v : vertices[b]) x.row(row++) = trajectory.frames[k].positions[b].row(v);
    const auto at = [&](int v) -> Vec3 { return x.row(v).transpose(); };
    const auto consider = [&](double distance, int a, int b) {
      const double gap = distance - mesh.contact_offset(a, b);
      if (gap < best.gap)
        best = {gap, int(k), mesh.vertex_body[std::size_t(a)], b < 0 ? -1 : mesh.vertex_body[std::size_t(b)], best.reach};
    };
    const Candidates c = find_candidates(mesh, x, x, search);
    for (const auto& p : c.point_triangle) {
      const int f0 = mesh.faces(p.face, 0), f1 = mesh.faces(p.face, 1), f2 = mesh.faces(p.face, 2);
      if (!is_shell(p.vertex) && !is_shell(f0)) continue;
      consider(std::sqrt(point_triangle_distance_sq(at(p.vertex), at(f0), at(f1), at(f2))), p.vertex, f0);
    }
    for (const auto& e : c.edge_edge) {
      const int a0 = mesh.edges(e.edge_a, 0), a1 = mesh.edges(e.edge_a, 1), b0 = mesh.edges(e.edge_b, 0),
                b1 = mesh.edges(e.edge_b, 1);
      if (!is_shell(a0) && !is_shell(b0)) continue;
      consider(std::sqrt(edge_edge_distance_sq(at(a0), at(a1), at(b0), at(b1))), a0, b0);
    }
    if (ground_height)
      for (Eigen::Index v = 0; v < x.rows(); ++v)
        if (is_shell(int(v))) consider(x(v, 2) - *ground_height, int(v), -1);
  }
  return best;
}

}  // namespace eipc::certify
