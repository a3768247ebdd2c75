// Every kind of bad input throws InputError whose message names the file, the line
// (where one applies) and the problem. The bad files are in solver/tests/data/mesh/bad/.
#include <catch2/catch.hpp>

#include "eipc/mesh/read_mesh.hpp"
#include "mesh_test_util.hpp"

using namespace eipc;
using eipc::test::mesh_data;

namespace {

struct BadFile {
  const char* name;     // under data/mesh/bad/
  int line;             // 0: the problem is not tied to a line
  const char* problem;  // expected part of the message
  bool surface = false; // read with read_surface_mesh instead of read_tet_mesh
};

std::string message_of(const BadFile& b, const std::string& path) {
  try {
    if (b.surface)
      read_surface_mesh(path);
    else
      read_tet_mesh(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "<no InputError thrown>";
}

}  // namespace

TEST_CASE("bad mesh files throw InputError naming file, line and problem", "[mesh][io][errors]") {
  const BadFile cases[] = {
      {"does_not_exist.msh", 0, "cannot read file"},
      {"unknown.xyz", 0, "unknown mesh file extension '.xyz'"},
      {"unknown.xyz", 0, "unknown mesh file extension '.xyz'", true},
      {"unknown.stl", 0, "a surface mesh; a tetrahedral mesh (.msh, .node/.ele, .vtk) is required here"},
      {"unknown.stl", 0, "no triangles in the STL file", true},  // surfaces read STL
      {"empty.msh", 0, "empty file"},
      {"truncated.msh", 9, "unexpected end of file (truncated)"},
      {"truncated.vtk", 10, "unexpected end of file (truncated)"},
      {"truncated.node", 4, "unexpected end of file (truncated) while reading point 3 of 4"},
      {"bad_number.msh", 8, "bad number '1.5x'"},
      {"bad_number.obj", 3, "bad number 'abc'", true},
      {"nan.msh", 9, "non-finite value 'nan'"},
      {"inf.vtk", 7, "non-finite value 'inf'"},
      {"nan.obj", 3, "non-finite value 'NaN'", true},
      {"index_range.msh", 13, "node tag 9 that is not defined"},
      {"index_range.vtk", 11, "refers to point 4, out of range"},
      {"index_range.ele", 2, "vertex 5 out of range"},
      {"index_range.obj", 4, "face vertex index 4 out of range", true},
      {"zero_index.obj", 4, "face vertex index 0 out of range", true},
      {"tet_3_nodes.msh", 13, "has 3 node tags, expected 4"},
      {"tet_3_points.vtk", 11, "has 3 points, expected 4"},
      {"tet_3_nodes.ele", 2, "wrong vertex count"},
      {"two_vertex_face.obj", 3, "face has 2 vertices, needs at least 3", true},
      {"no_tets.msh", 0, "no tetrahedra"},
      {"no_tets.vtk", 0, "no tetrahedra"},
      {"no_faces.obj", 0, "no faces", true},
      {"binary.msh", 2, "binary .msh files are not supported"},
      {"version3.msh", 2, "unsupported Gmsh format version 3.0"},
      {"tet10.msh", 13, "unsupported volume element type 11"},
  };
  for (const BadFile& b : cases) {
    const std::string path = mesh_data(std::string("bad/") + b.name);
    const std::string msg = message_of(b, path);
    INFO(b.name << ": " << msg);
    CHECK(msg.rfind(path, 0) == 0);  // starts with the file name
    if (b.line > 0) CHECK(msg.rfind(path + ":" + std::to_string(b.line) + ": ", 0) == 0);
    CHECK(msg.find(b.problem) != std::string::npos);
  }
}

TEST_CASE("a TetGen mesh is found from either file; a missing partner is named", "[mesh][io][errors]") {
  const std::string node = mesh_data("bad/index_range.node");
  const std::string ele = mesh_data("bad/index_range.ele");
  CHECK_THROWS_WITH(read_tet_mesh(node), Catch::Contains(ele + ":2:"));  // found via the .node path
  CHECK_THROWS_WITH(read_tet_mesh(mesh_data("bad/truncated.ele")), Catch::Contains("truncated.node"));
  CHECK_THROWS_WITH(read_tet_mesh(mesh_data("bad/no_such.ele")), Catch::Contains("no_such.node: cannot read file"));
}

TEST_CASE("an OBJ is refused where a tet mesh is required", "[mesh][io][errors]") {
  CHECK_THROWS_WITH(read_tet_mesh(mesh_data("cube_quads.obj")), Catch::Contains("cube_quads.obj: a surface mesh; a tetrahedral mesh"));
}
