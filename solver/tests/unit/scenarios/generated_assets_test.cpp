// The generated scenario assets (scenarios/assets/generated, made by
// scenarios/generators/make_assets) read with the project's readers and pass its validators;
// their sizes, counts and key geometric facts match what the README promises.
#include <Eigen/Geometry>
#include <catch2/catch.hpp>

#include "eipc/certify/frame_check.hpp"
#include "eipc/embedding/point_location.hpp"
#include "eipc/mesh/read_mesh.hpp"
#include "eipc/mesh/surface.hpp"
#include "eipc/mesh/transform.hpp"
#include "eipc/mesh/validate.hpp"
#include "eipc/mesh/volume.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <numeric>
#include <set>
#include <string>
#include <vector>

using namespace eipc;

namespace {

std::string generated(const std::string& name) { return std::string(EIPC_ASSETS) + "/generated/" + name; }

/// Reads and validates a tet mesh: valid tets, no unused vertex, closed outward boundary
/// enclosing the tets' volume.
TetMesh read_valid_tet_mesh(const std::string& name) {
  const std::string path = generated(name);
  const TetMesh m = read_tet_mesh(path);
  REQUIRE_NOTHROW(validate_tet_mesh(m, path));
  CHECK(unused_vertices(m).empty());
  const Tris faces = boundary_faces(m.tets);
  REQUIRE_NOTHROW(validate_closed_surface(faces, m.num_vertices(), path));
  const double volume = tet_mesh_volume(m.vertices, m.tets);
  CHECK(volume > 0.0);
  CHECK(enclosed_volume(m.vertices, faces) == Approx(volume).epsilon(1e-10));
  return m;
}

Vec3 bbox_min(const Positions& x) { return x.colwise().minCoeff().transpose(); }
Vec3 bbox_max(const Positions& x) { return x.colwise().maxCoeff().transpose(); }

/// Total area of the boundary triangles whose three corners satisfy coord(axis) == value.
double area_in_plane(const Positions& x, const Tris& faces, int axis, double value) {
  double area = 0.0;
  for (int f = 0; f < faces.rows(); ++f) {
    const Vec3 a = x.row(faces(f, 0)), b = x.row(faces(f, 1)), c = x.row(faces(f, 2));
    if (a[axis] == value && b[axis] == value && c[axis] == value) area += 0.5 * (b - a).cross(c - a).norm();
  }
  return area;
}

/// Genus of a closed connected orientable surface: chi = V - E + F = 2 - 2 g.
int genus(const Tris& faces) {
  const long v = static_cast<long>(surface_vertices(faces).size());
  const long e = unique_edges(faces).rows();
  const long f = faces.rows();
  return static_cast<int>((2 - (v - e + f)) / 2);
}

/// Connected components of a triangle set (by shared vertices): component id per face.
std::vector<int> face_components(const Tris& faces, int num_vertices) {
  std::vector<int> parent(num_vertices);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (int f = 0; f < faces.rows(); ++f)
    for (int k = 1; k < 3; ++k) parent[find(faces(f, k))] = find(faces(f, 0));
  std::vector<int> id(num_vertices, -1), comp(faces.rows());
  int count = 0;
  for (int f = 0; f < faces.rows(); ++f) {
    const int r = find(faces(f, 0));
    if (id[r] < 0) id[r] = count++;
    comp[f] = id[r];
  }
  return comp;
}

/// Triangles as a set of index triples rotated to start at their smallest index
/// (orientation kept).
std::set<std::array<int, 3>> canonical_faces(const Tris& faces) {
  std::set<std::array<int, 3>> out;
  for (int f = 0; f < faces.rows(); ++f) {
    std::array<int, 3> t{faces(f, 0), faces(f, 1), faces(f, 2)};
    std::rotate(t.begin(), std::min_element(t.begin(), t.end()), t.end());
    out.insert(t);
  }
  return out;
}

}  // namespace

TEST_CASE("FinRay fingers: base on z = 0, front wall on x = 0, five ribs", "[scenarios][assets]") {
  struct Case {
    const char* file;
    int min_vertices, max_vertices;
  };
  double volume_fine = 0.0;
  for (const Case& c : {Case{"finray.msh", 1500, 4000}, Case{"finray_coarse.msh", 200, 400}}) {
    INFO(c.file);
    const TetMesh m = read_valid_tet_mesh(c.file);
    CHECK(m.num_vertices() >= c.min_vertices);
    CHECK(m.num_vertices() <= c.max_vertices);
    // 20 mm wide (x), 20 mm deep (y, centred), 55 mm from base to tip (z).
    CHECK((bbox_min(m.vertices) - Vec3(0, -0.01, 0)).cwiseAbs().maxCoeff() < 1e-15);
    CHECK((bbox_max(m.vertices) - Vec3(0.02, 0.01, 0.055)).cwiseAbs().maxCoeff() < 1e-15);
    const Tris faces = boundary_faces(m.tets);
    // The whole base is one flat face z = 0 (20 x 20 mm) and the front wall one flat face x = 0
    // (55 x 20 mm): a box selection of z <= 0 gets exactly the gripper attachment.
    CHECK(area_in_plane(m.vertices, faces, 2, 0.0) == Approx(0.02 * 0.02).epsilon(1e-12));
    CHECK(area_in_plane(m.vertices, faces, 0, 0.0) == Approx(0.055 * 0.02).epsilon(1e-12));
    // 5 ribs split the hollow triangle into 6 through-holes: the boundary has genus 6.
    CHECK(genus(faces) == 6);
    const double volume = tet_mesh_volume(m.vertices, m.tets);
    if (volume_fine == 0.0) volume_fine = volume;
    CHECK(volume == Approx(volume_fine).epsilon(1e-9));  // same geometry at both resolutions
    // Walls 1.5 mm, ribs 1 mm: far less than the solid triangle 0.5 * 20 * 55 mm * 20 mm.
    CHECK(volume > 0.3 * 0.5 * 0.02 * 0.055 * 0.02);
    CHECK(volume < 0.5 * 0.5 * 0.02 * 0.055 * 0.02);
  }
}

TEST_CASE("plate.msh keeps the plate OBJ surface exactly", "[scenarios][assets]") {
  const TetMesh m = read_valid_tet_mesh("plate.msh");
  const SurfaceMesh obj = read_surface_mesh(std::string(EIPC_ASSETS) + "/drake_models/dishes/plate_8in_col.obj");
  REQUIRE(obj.num_vertices() == 450);
  REQUIRE(obj.num_faces() == 896);
  const SurfaceMesh boundary = read_surface_mesh(generated("plate.msh"));
  // Same vertices in the same order (bit for bit) and the same oriented triangles.
  REQUIRE(boundary.num_vertices() == obj.num_vertices());
  CHECK(boundary.vertices == obj.vertices);
  CHECK(boundary.vertices == m.vertices.topRows(450));
  CHECK(boundary.num_faces() == obj.num_faces());
  CHECK(canonical_faces(boundary.faces) == canonical_faces(obj.faces));
  CHECK(tet_mesh_volume(m.vertices, m.tets) == Approx(enclosed_volume(obj.vertices, obj.faces)).epsilon(1e-12));
}

TEST_CASE("resolution-study spheres: radius 0.05 m at 400, 5k and 50k vertices", "[scenarios][assets]") {
  struct Case {
    const char* file;
    int target;
  };
  const double r = 0.05, ball = 4.0 / 3.0 * M_PI * r * r * r;
  double previous_volume = 0.0;
  for (const Case& c : {Case{"sphere_0k4.msh", 400}, Case{"sphere_5k.msh", 5000}, Case{"sphere_50k.msh", 50000}}) {
    INFO(c.file);
    if (!std::filesystem::exists(generated(c.file))) {
      // Not committed (13 MB): produced by `scenarios/generators/make_assets sphere_50k`.
      WARN(c.file << " not generated; run scenarios/generators/make_assets " << c.file);
      continue;
    }
    const TetMesh m = read_valid_tet_mesh(c.file);
    CHECK(std::abs(m.num_vertices() - c.target) <= 0.15 * c.target);
    // Surface vertices lie on the sphere, interior ones inside it.
    std::vector<int> on_surface = surface_vertices(boundary_faces(m.tets));
    for (int v : on_surface) REQUIRE(m.vertices.row(v).norm() == Approx(r).epsilon(1e-9));
    CHECK(m.vertices.rowwise().norm().maxCoeff() <= r * (1 + 1e-9));
    // Inscribed polyhedra: volume below the ball's, approaching it as the mesh is refined.
    const double volume = tet_mesh_volume(m.vertices, m.tets);
    CHECK(volume < ball);
    CHECK(volume > 0.95 * ball);
    CHECK(volume > previous_volume);
    previous_volume = volume;
  }
}

TEST_CASE("teddy_50k.msh: Drake's teddy, surface subdivided twice, inside the low lattice", "[scenarios][assets]") {
  if (!std::filesystem::exists(generated("teddy_50k.msh"))) {
    // Not committed (15 MB): produced by `scenarios/generators/make_assets teddy_50k`.
    WARN("teddy_50k.msh not generated; run scenarios/generators/make_assets teddy_50k");
    return;
  }
  const TetMesh m = read_valid_tet_mesh("teddy_50k.msh");
  const TetMesh teddy = read_tet_mesh(std::string(EIPC_ASSETS) + "/drake/teddy.vtk");
  CHECK(m.num_vertices() >= 50000);
  // Two midpoint subdivisions: 16 triangles per input triangle; the surface vertices come
  // first, teddy.vtk's boundary vertices (in file order, bit for bit) then the midpoints.
  const Tris faces = boundary_faces(m.tets);
  const Tris teddy_faces = boundary_faces(teddy.tets);
  CHECK(faces.rows() == 16 * teddy_faces.rows());
  const std::vector<int> teddy_surface = surface_vertices(teddy_faces);
  const std::vector<int> on_surface = surface_vertices(faces);
  REQUIRE(on_surface.size() == 4962);  // 312 + 930 edge midpoints + 3720 of the second level
  CHECK(on_surface.back() == 4961);
  for (std::size_t k = 0; k < teddy_surface.size(); ++k)
    REQUIRE(m.vertices.row(static_cast<Eigen::Index>(k)) == teddy.vertices.row(teddy_surface[k]));
  // The same solid: midpoints lie on the input triangles.
  CHECK(bbox_min(m.vertices) == bbox_min(teddy.vertices));
  CHECK(bbox_max(m.vertices) == bbox_max(teddy.vertices));
  CHECK(tet_mesh_volume(m.vertices, m.tets) == Approx(tet_mesh_volume(teddy.vertices, teddy.tets)).epsilon(1e-12));
  // scenarios/resolution/teddy_50k.json embeds it in the low lattice: no vertex extrapolated.
  const TetMesh low = read_tet_mesh(std::string(EIPC_ASSETS) + "/embeddings/teddy_low.msh");
  int outside = 0;
  for (const TetLocation& loc : locate_points(low.vertices, low.tets, m.vertices)) outside += loc.outside_distance > 0.0;
  CHECK(outside == 0);
}

TEST_CASE("dish rack: nine separate closed outward wires, intersection-free", "[scenarios][assets]") {
  const std::string path = generated("dish_rack.obj");
  const SurfaceMesh rack = read_surface_mesh(path);
  REQUIRE_NOTHROW(validate_closed_surface(rack.faces, rack.num_vertices(), path));
  CHECK(rack.num_faces() >= 1000);
  CHECK(rack.num_faces() <= 5000);
  // 3 mm wires: frame 0.2 x 0.12 m plus wire radius, uprights up to z = 0.1, lowest point 2 mm up.
  const Vec3 lo = bbox_min(rack.vertices), hi = bbox_max(rack.vertices);
  CHECK(lo.z() == Approx(0.002).epsilon(1e-12));
  CHECK(hi.z() == Approx(0.1).epsilon(1e-12));
  CHECK(hi.x() - lo.x() == Approx(0.2 + 0.003).epsilon(0.01));
  CHECK(hi.y() - lo.y() == Approx(0.14 + 0.003).epsilon(0.01));
  // Every wire (connected component) is a closed tube with outward faces.
  const std::vector<int> comp = face_components(rack.faces, rack.num_vertices());
  const int wires = *std::max_element(comp.begin(), comp.end()) + 1;
  CHECK(wires == 9);  // frame, 6 uprights, 2 rails
  for (int w = 0; w < wires; ++w) {
    Tris part(std::count(comp.begin(), comp.end(), w), 3);
    for (int f = 0, k = 0; f < rack.faces.rows(); ++f)
      if (comp[f] == w) part.row(k++) = rack.faces.row(f);
    INFO("wire " << w);
    CHECK(enclosed_volume(rack.vertices, part) > 0.0);
    CHECK(genus(part) == (w == 0 ? 1 : 0));  // the frame is a loop (torus), the others capped tubes
  }
  // Exact check (CGAL predicates): no two triangles of the body meet except at shared vertices.
  const certify::FrameCheck check = certify::check_frame({{&rack.vertices, &rack.faces, true}}, std::nullopt);
  CHECK(check.ok());
  CHECK(check.candidate_pairs > 0);
}

TEST_CASE("a plate placed as the README says stands in each rack slot without touching it", "[scenarios][assets]") {
  const SurfaceMesh rack = read_surface_mesh(generated("dish_rack.obj"));
  const SurfaceMesh plate = read_surface_mesh(std::string(EIPC_ASSETS) + "/drake_models/dishes/plate_8in_col.obj");
  // README "Slots" table: rotation_deg [0, 90, 0] about the mesh origin (as the scene loader
  // applies a transform) and these translations.
  const double slot_tx[] = {-0.069088, -0.039088, -0.009088, 0.020912, 0.050912};
  for (double tx : slot_tx) {
    INFO("slot translation x = " << tx);
    Transform t;
    t.rotation_deg = Vec3(0, 90, 0);
    t.translation = Vec3(tx, 0.0, 0.106931);
    const Positions placed = transformed(plate.vertices, t, Vec3::Zero());
    const certify::FrameCheck ok =
        certify::check_frame({{&rack.vertices, &rack.faces, true}, {&placed, &plate.faces, true}}, std::nullopt);
    for (const auto& v : ok.examples)
      UNSCOPED_INFO("violation kind " << int(v.kind) << " body " << v.body_a << ":" << v.index_a << " / " << v.body_b << ":" << v.index_b);
    CHECK(ok.ok());
    // Standing on its rim: 196 mm tall, 17.8 mm thick across the slot, its bottom just above
    // the rails' top (slot floor z = 0.013886) and below the rack's top.
    const Vec3 lo = bbox_min(placed), hi = bbox_max(placed);
    CHECK(hi.z() - lo.z() == Approx(0.19621).epsilon(1e-4));
    CHECK(hi.x() - lo.x() < 0.018);
    CHECK(lo.z() > 0.005);
    CHECK(lo.z() < 0.013886);
    // Lowered by 3 mm it would cut into the rails: the check can fail.
    Positions sunk = placed;
    sunk.col(2).array() -= 0.003;
    const certify::FrameCheck bad =
        certify::check_frame({{&rack.vertices, &rack.faces, true}, {&sunk, &plate.faces, true}}, std::nullopt);
    CHECK(bad.triangle_pairs > 0);
  }
}
