// CGAL's Mesh_3 on a polyhedral domain with features; CGAL's polygon mesh processing for
// the checks it needs (closed, manifold, no self-intersection). One translation unit:
// these headers take a minute to compile.
#include "eipc/tetrahedralize/tetrahedralize.hpp"

#include "eipc/mesh/validate.hpp"

#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Mesh_complex_3_in_triangulation_3.h>
#include <CGAL/Mesh_criteria_3.h>
#include <CGAL/Mesh_triangulation_3.h>
#include <CGAL/Polygon_mesh_processing/orient_polygon_soup.h>
#include <CGAL/Polygon_mesh_processing/orientation.h>
#include <CGAL/Polygon_mesh_processing/polygon_soup_to_polygon_mesh.h>
#include <CGAL/Polygon_mesh_processing/self_intersections.h>
#include <CGAL/Polyhedral_mesh_domain_with_features_3.h>
#include <CGAL/Random.h>
#include <CGAL/Surface_mesh.h>
#include <CGAL/make_mesh_3.h>

#include <array>
#include <iterator>
#include <map>
#include <vector>

namespace eipc {
namespace {

using Kernel = CGAL::Exact_predicates_inexact_constructions_kernel;
using Point = Kernel::Point_3;
using Polygon = CGAL::Surface_mesh<Point>;
using Domain = CGAL::Polyhedral_mesh_domain_with_features_3<Kernel, Polygon>;
using Triangulation = CGAL::Mesh_triangulation_3<Domain, CGAL::Default, CGAL::Sequential_tag>::type;
using Complex = CGAL::Mesh_complex_3_in_triangulation_3<Triangulation, Domain::Corner_index, Domain::Curve_index>;
using Criteria = CGAL::Mesh_criteria_3<Triangulation>;
namespace PMP = CGAL::Polygon_mesh_processing;

/// The surface as a CGAL mesh, outward oriented; the checks a domain needs, with messages
/// in the file's own triangle numbers.
Polygon checked_polygon_mesh(const SurfaceMesh& s, const std::string& source) {
  // Open or non-manifold edges first: those have no inside to mesh.
  validate_closed_surface(s.faces, s.num_vertices(), source, SurfaceOrientation::either);
  std::vector<Point> points;
  points.reserve(static_cast<std::size_t>(s.num_vertices()));
  for (int v = 0; v < s.num_vertices(); ++v) points.emplace_back(s.vertices(v, 0), s.vertices(v, 1), s.vertices(v, 2));
  std::vector<std::array<std::size_t, 3>> triangles;
  triangles.reserve(static_cast<std::size_t>(s.num_faces()));
  for (int f = 0; f < s.num_faces(); ++f)
    triangles.push_back({std::size_t(s.faces(f, 0)), std::size_t(s.faces(f, 1)), std::size_t(s.faces(f, 2))});
  // Consistent orientation per connected part (a mixed-up STL is common); the edges are
  // manifold here, so no vertex is duplicated and triangle f stays face f.
  if (!PMP::orient_polygon_soup(points, triangles))
    throw InputError(source + ": the surface has non-manifold vertices (two parts touching at a point); "
                              "separate them or give a tetrahedral mesh");
  Polygon mesh;
  PMP::polygon_soup_to_polygon_mesh(points, triangles, mesh);
  std::vector<std::pair<Polygon::Face_index, Polygon::Face_index>> crossing;
  PMP::self_intersections(faces(mesh), mesh, std::back_inserter(crossing));
  if (!crossing.empty())
    throw InputError(source + ": the surface intersects itself: triangles " + std::to_string(crossing.front().first) +
                     " and " + std::to_string(crossing.front().second) + " cross (" + std::to_string(crossing.size()) +
                     " pairs in total); repair it (e.g. MeshLab, PyMeshLab's meshing_repair_non_manifold and "
                     "self-intersection filters) or give a tetrahedral mesh");
  PMP::orient_to_bound_a_volume(mesh);
  return mesh;
}

}  // namespace

double default_tet_size(const SurfaceMesh& surface) {
  const Vec3 lo = surface.vertices.colwise().minCoeff().transpose();
  const Vec3 hi = surface.vertices.colwise().maxCoeff().transpose();
  return (hi - lo).norm() / 20.0;
}

TetMesh tetrahedralize(const SurfaceMesh& surface, const TetrahedralizeOptions& options, const std::string& source) {
  if (!(options.size > 0)) throw InputError(source + ": the tet size must be positive");
  Polygon polygon = checked_polygon_mesh(surface, source);
  // A fixed seed: the same surface and size give the same tets on every machine and run.
  CGAL::Random random(0);
  Domain domain(polygon, &random);
  domain.detect_features(60.0);  // edges whose faces' normals differ by more than 60 degrees stay sharp
  const double h = options.size;
  const Criteria criteria(CGAL::parameters::edge_size = h, CGAL::parameters::facet_angle = 25.0,
                          CGAL::parameters::facet_size = h, CGAL::parameters::facet_distance = h / 10.0,
                          CGAL::parameters::cell_radius_edge_ratio = 3.0, CGAL::parameters::cell_size = h);
  const Complex complex = CGAL::make_mesh_3<Complex>(domain, criteria, CGAL::parameters::no_perturb(),
                                                      CGAL::parameters::exude(CGAL::parameters::time_limit = 0));

  TetMesh mesh;
  std::map<Triangulation::Vertex_handle, int> index;
  std::vector<std::array<int, 4>> tets;
  for (auto c = complex.cells_in_complex_begin(); c != complex.cells_in_complex_end(); ++c) {
    std::array<int, 4> tet{};
    for (int k = 0; k < 4; ++k) {
      const auto [it, inserted] = index.emplace(c->vertex(k), static_cast<int>(index.size()));
      tet[static_cast<std::size_t>(k)] = it->second;
    }
    tets.push_back(tet);
  }
  if (tets.empty())
    throw InputError(source + ": tetrahedralizing gave no tets: the size is too large for the body (or the "
                              "surface encloses no volume); give a smaller tet size");
  mesh.vertices.resize(static_cast<Eigen::Index>(index.size()), 3);
  for (const auto& [v, i] : index) {
    const Point& p = v->point().point();
    mesh.vertices.row(i) << p.x(), p.y(), p.z();
  }
  mesh.tets.resize(static_cast<Eigen::Index>(tets.size()), 4);
  for (std::size_t t = 0; t < tets.size(); ++t)
    for (int k = 0; k < 4; ++k) mesh.tets(static_cast<Eigen::Index>(t), k) = tets[t][static_cast<std::size_t>(k)];
  return mesh;
}

}  // namespace eipc
