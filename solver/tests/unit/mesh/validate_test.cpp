// Validation accepts good meshes and names the first offender of each kind of defect.
#include <catch2/catch.hpp>

#include "eipc/testing/box_mesh.hpp"
#include "eipc/mesh/validate.hpp"

#include <limits>

using namespace eipc;
using Catch::Contains;

namespace {

TetMesh two_tets() {
  TetMesh m;
  m.vertices.resize(5, 3);
  m.vertices << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1;
  m.tets.resize(2, 4);
  m.tets << 0, 1, 2, 3, 1, 2, 3, 4;
  return m;
}

}  // namespace

TEST_CASE("validate_tet_mesh accepts good meshes, with or without unused vertices", "[mesh][validate]") {
  CHECK_NOTHROW(validate_tet_mesh(two_tets(), "t"));
  TetMesh m = two_tets();
  m.vertices.conservativeResize(6, 3);
  m.vertices.row(5) << 5, 5, 5;  // unused: allowed, listed by unused_vertices
  CHECK_NOTHROW(validate_tet_mesh(m, "t"));
  CHECK(unused_vertices(m) == std::vector<int>{5});
  std::vector<int> old;
  const TetMesh compact = remove_unused_vertices(m, &old);
  CHECK(old == std::vector<int>{0, 1, 2, 3, 4});
  CHECK(compact.vertices == two_tets().vertices);
  CHECK(compact.tets == two_tets().tets);
}

TEST_CASE("validate_tet_mesh rejects inverted and degenerate tets by index", "[mesh][validate]") {
  TetMesh m = two_tets();
  std::swap(m.tets(1, 0), m.tets(1, 1));
  CHECK_THROWS_WITH(validate_tet_mesh(m, "src.msh"), Contains("src.msh: tet 1 is inverted"));

  m = box_tet_mesh(Vec3(0, 0, 0), Vec3(1, 1, 1), 2, 2, 2);
  for (int t : {5, 9, 30}) std::swap(m.tets(t, 2), m.tets(t, 3));
  CHECK_THROWS_WITH(validate_tet_mesh(m, "b"), Contains("tet 5 is inverted") && Contains("3 such in total"));

  // Volume threshold 1e-12 * L^3 with L = 1: h/6 = 2e-12 passes, h/6 = 0.5e-12 fails.
  TetMesh flat;
  flat.vertices.resize(4, 3);
  flat.tets.resize(1, 4);
  flat.tets << 0, 1, 2, 3;
  flat.vertices << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 12e-12;
  CHECK_NOTHROW(validate_tet_mesh(flat, "f"));
  flat.vertices(3, 2) = 3e-12;
  CHECK_THROWS_WITH(validate_tet_mesh(flat, "f"), Contains("f: tet 0 is degenerate"));
  flat.vertices(3, 2) = 0.0;
  CHECK_THROWS_WITH(validate_tet_mesh(flat, "f"), Contains("tet 0 is degenerate"));
  flat.vertices(3, 2) = -3e-12;  // tiny negative volume is degenerate, not inverted
  CHECK_THROWS_WITH(validate_tet_mesh(flat, "f"), Contains("tet 0 is degenerate"));
}

TEST_CASE("validate_tet_mesh rejects non-finite, out-of-range, repeated, non-conforming", "[mesh][validate]") {
  TetMesh m = two_tets();
  m.vertices(2, 1) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(validate_tet_mesh(m, "s"), Contains("s: vertex 2 has a NaN or infinite coordinate"));
  m = two_tets();
  m.vertices(4, 0) = std::numeric_limits<double>::infinity();
  CHECK_THROWS_WITH(validate_tet_mesh(m, "s"), Contains("vertex 4"));
  m = two_tets();
  m.tets(1, 3) = 5;
  CHECK_THROWS_WITH(validate_tet_mesh(m, "s"), Contains("tet 1 refers to vertex 5, out of range"));
  m = two_tets();
  m.tets(0, 3) = 0;
  CHECK_THROWS_WITH(validate_tet_mesh(m, "s"), Contains("tet 0 repeats vertex 0"));
  m = TetMesh{two_tets().vertices, Tets(0, 4)};
  CHECK_THROWS_WITH(validate_tet_mesh(m, "s"), Contains("no tetrahedra"));

  // A third tet on face (1,2,3), on the same side as tet 1: overlap and a 3-tet face.
  m = two_tets();
  m.vertices.conservativeResize(6, 3);
  m.vertices.row(5) << 0.6, 0.6, 0.6;
  m.tets.conservativeResize(3, 4);
  m.tets.row(2) << 1, 2, 3, 5;
  CHECK_THROWS_WITH(validate_tet_mesh(m, "s"), Contains("face (1, 2, 3) is shared by more than two tets"));
  m.tets.conservativeResize(2, 4);
  m.tets.row(1) << 1, 2, 3, 5;  // now tets 0 and 1 both on... tet 1 on the far side: fine
  CHECK_NOTHROW(validate_tet_mesh(m, "s"));
  // Two positive tets on the same side of a shared face overlap.
  TetMesh o;
  o.vertices.resize(5, 3);
  o.vertices << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.1, 0.1, 0.5;
  o.tets.resize(2, 4);
  o.tets << 0, 1, 2, 3, 0, 1, 2, 4;
  CHECK_THROWS_WITH(validate_tet_mesh(o, "s"), Contains("tets 0 and 1 overlap"));
}

TEST_CASE("validate_closed_surface names open, non-manifold, flipped and degenerate faces", "[mesh][validate]") {
  const SurfaceMesh box = box_surface(Vec3(0, 0, 0), Vec3(1, 1, 1));
  const int n = box.num_vertices();
  CHECK_NOTHROW(validate_closed_surface(box.faces, n, "box"));

  Tris open = box.faces.topRows(11);
  CHECK_THROWS_WITH(validate_closed_surface(open, n, "box"), Contains("box: edge (") && Contains("the surface is open") &&
                                                                 Contains("3 such in total"));
  Tris flipped = box.faces;
  std::swap(flipped(4, 1), flipped(4, 2));
  CHECK_THROWS_WITH(validate_closed_surface(flipped, n, "box"), Contains("inconsistent orientation") && Contains("triangles"));
  Tris extra(13, 3);
  extra << box.faces, box.faces(0, 1), box.faces(0, 0), box.faces(0, 2);
  // The duplicate (reversed) of face 0 puts three faces on each of its edges.
  CHECK_THROWS_WITH(validate_closed_surface(extra, n, "box"), Contains("shared by 3 triangles: non-manifold"));
  Tris degenerate = box.faces;
  degenerate(7, 2) = degenerate(7, 0);
  CHECK_THROWS_WITH(validate_closed_surface(degenerate, n, "box"), Contains("triangle 7 is degenerate"));
  Tris range = box.faces;
  range(3, 1) = n;
  CHECK_THROWS_WITH(validate_closed_surface(range, n, "box"), Contains("triangle 3 refers to vertex 8, out of range"));
  CHECK_THROWS_WITH(validate_closed_surface(Tris(0, 3), n, "box"), Contains("no triangles"));
}
