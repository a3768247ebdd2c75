// Frame readers (PLY, STL, legacy VTK surfaces, VTK XML, .pvd), frame sequences and
// surface components, on files this test writes byte by byte. Files written by other
// tools (Python's struct, VTK) are certified in tests/unit/certify/test_dataset_formats.cpp.
#include "eipc/common.hpp"
#include "eipc/mesh/components.hpp"
#include "eipc/mesh/frame_sequence.hpp"
#include "eipc/mesh/read_ply.hpp"
#include "eipc/mesh/read_pvd.hpp"
#include "eipc/mesh/read_stl.hpp"
#include "eipc/mesh/read_vtk.hpp"
#include "eipc/mesh/read_vtk_xml.hpp"
#include "eipc/mesh/surface_file.hpp"
#include "mesh_test_util.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>

using namespace eipc;

namespace {

std::string write_file(const std::string& dir, const std::string& name, const std::string& bytes) {
  const std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

/// `value`'s bytes in the given order.
template <typename T>
std::string bytes_of(T value, bool big_endian) {
  std::string b(sizeof(T), '\0');
  std::memcpy(b.data(), &value, sizeof(T));
  if (big_endian) std::reverse(b.begin(), b.end());  // the test host is little-endian (x86-64)
  return b;
}

const char* kTriangleHeader =
    "element vertex 3\nproperty %s x\nproperty %s y\nproperty %s z\nproperty uchar red\n"
    "element face 1\nproperty list uchar uint vertex_indices\nend_header\n";

/// A one-triangle binary PLY whose first coordinate is `x0` (scalar type T, named `type`).
template <typename T>
std::string binary_ply(const char* type, bool big_endian, T x0) {
  char header[512];
  std::snprintf(header, sizeof header, kTriangleHeader, type, type, type);
  std::string s = std::string("ply\nformat ") + (big_endian ? "binary_big_endian" : "binary_little_endian") +
                  " 1.0\ncomment colour per vertex\n" + header;
  const T coords[3][3] = {{x0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  for (const auto& p : coords) {
    for (T c : p) s += bytes_of(c, big_endian);
    s += '\x7f';  // red
  }
  s += '\x03';
  for (std::uint32_t v : {0u, 1u, 2u}) s += bytes_of(v, big_endian);
  return s;
}

}  // namespace

TEST_CASE("PLY: both byte orders, float and double, read exactly", "[mesh][ply]") {
  const std::string dir = test::scratch_dir("ply");
  for (const bool big : {false, true}) {
    // A float widens exactly: 0.1f is not 0.1, and the reader must not round through text or float.
    const SurfaceMesh f = read_ply(write_file(dir, "f.ply", binary_ply<float>("float", big, 0.1f)));
    CHECK(f.vertices(0, 0) == static_cast<double>(0.1f));
    CHECK(f.vertices(0, 0) != 0.1);
    const SurfaceMesh d = read_ply(write_file(dir, "d.ply", binary_ply<double>("double", big, 0.1)));
    CHECK(d.vertices(0, 0) == 0.1);
    CHECK(d.faces.rows() == 1);
    CHECK(d.faces(0, 2) == 2);
  }
  // int16 coordinates, and an ascii float property: the float nearest its text.
  const SurfaceMesh s = read_ply(write_file(dir, "s.ply", binary_ply<std::int16_t>("short", true, -7)));
  CHECK(s.vertices(0, 0) == -7.0);
  const SurfaceMesh a = read_ply(write_file(dir, "a.ply",
                                            "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\n"
                                            "property float z\nproperty float nx\nelement face 1\n"
                                            "property list uchar int vertex_indices\nend_header\n"
                                            "0.1 0 0 9\n1 0 0 9\n1 1 0 9\n0 1 0 9\n4 0 1 2 3\n"));
  CHECK(a.vertices(0, 0) == static_cast<double>(0.1f));
  REQUIRE(a.faces.rows() == 2);  // the quad, fan-triangulated
  CHECK(a.faces(1, 0) == 0);
  CHECK(a.faces(1, 1) == 2);
  CHECK(a.faces(1, 2) == 3);
}

TEST_CASE("PLY: problems name the file and what is wrong", "[mesh][ply]") {
  const std::string dir = test::scratch_dir("ply_bad");
  std::string bad = binary_ply<float>("float", false, 0.0f);
  bad[bad.size() - 4] = 9;  // the face's last index
  CHECK_THROWS_WITH(read_ply(write_file(dir, "range.ply", bad)), Catch::Contains("range.ply") && Catch::Contains("face 0 refers to vertex 9"));
  const std::string full = binary_ply<float>("float", false, 0.0f);
  CHECK_THROWS_WITH(read_ply(write_file(dir, "cut.ply", full.substr(0, full.size() - 2))), Catch::Contains("truncated"));
  CHECK_THROWS_WITH(read_ply(write_file(dir, "nan.ply", binary_ply<float>("float", false, NAN))), Catch::Contains("vertex 0 has a non-finite"));
  CHECK_THROWS_WITH(read_ply(write_file(dir, "type.ply", "ply\nformat ascii 1.0\nelement vertex 1\nproperty quad x\nend_header\n")),
                    Catch::Contains("type.ply:4: unknown property type 'quad'"));
  CHECK_THROWS_WITH(read_ply(write_file(dir, "noz.ply", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n"
                                                        "property float y\nend_header\n0 0\n")),
                    Catch::Contains("lacks an x, y or z"));
  CHECK_THROWS_WITH(read_ply(write_file(dir, "huge.ply", "ply\nformat binary_little_endian 1.0\nelement vertex 999999999\n"
                                                         "property double x\nproperty double y\nproperty double z\nend_header\n")),
                    Catch::Contains("do not fit"));
}

TEST_CASE("STL: corners joined by exact coordinate equality, binary and ASCII", "[mesh][stl]") {
  const std::string dir = test::scratch_dir("stl");
  // Binary: two triangles sharing an edge; one shared corner written as -0.
  std::string bin(80, ' ');
  bin += bytes_of<std::uint32_t>(2, false);
  const float tris[2][3][3] = {{{0, 0, 0}, {1, 0, 0}, {0, 1, 0.1f}}, {{1, 0, 0}, {1, 1, 0}, {0, 1, 0.1f}}};
  for (const auto& t : tris) {
    for (int k = 0; k < 3; ++k) bin += bytes_of(0.0f, false);  // normal
    for (const auto& p : t)
      for (float c : p) bin += bytes_of(&p == &tris[1][0] && c == 0.0f ? -0.0f : c, false);
    bin += std::string(2, '\0');
  }
  const StlSurface b = read_stl(write_file(dir, "b.stl", bin));
  CHECK(b.corners == 6);
  REQUIRE(b.mesh.vertices.rows() == 4);
  CHECK(b.mesh.faces(1, 0) == 1);  // (1, -0, -0) joined (1, 0, 0)
  CHECK(b.mesh.faces(1, 2) == 2);
  CHECK(b.mesh.vertices(2, 2) == static_cast<double>(0.1f));
  // ASCII, two solids: concatenated.
  const std::string facet = " facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n   vertex 0 1 0\n  endloop\n endfacet\n";
  const StlSurface a = read_stl(write_file(dir, "a.stl", "solid one\n" + facet + "endsolid one\nsolid two\n" + facet + "endsolid two\n"));
  CHECK(a.mesh.faces.rows() == 2);
  CHECK(a.mesh.vertices.rows() == 3);
  const SurfaceFile file = read_surface_file(dir + "/a.stl");
  REQUIRE(file.notes.size() == 1);
  CHECK(file.notes[0].find("6 corners joined into 3 vertices by exact coordinate equality") != std::string::npos);
  CHECK_THROWS_WITH(read_stl(write_file(dir, "four.stl", "solid x\n facet normal 0 0 1\n outer loop\n vertex 0 0 0\n vertex 1 0 0\n"
                                                         " vertex 0 1 0\n vertex 1 1 0\n endloop\n endfacet\nendsolid x\n")),
                    Catch::Contains("four.stl:7: facet has more than 3 vertices"));
  CHECK_THROWS_WITH(read_stl(write_file(dir, "empty.stl", "solid x\nendsolid x\n")), Catch::Contains("no triangles"));
}

TEST_CASE("legacy VTK surfaces: polydata polygons and strips, a tet's boundary", "[mesh][vtk]") {
  const std::string dir = test::scratch_dir("vtk_surface");
  const SurfaceMesh pd = read_vtk_surface(write_file(
      dir, "pd.vtk",
      "# vtk DataFile Version 3.0\nx\nASCII\nDATASET POLYDATA\nPOINTS 5 float\n0 0 0 1 0 0 1 1 0 0 1 0 0.1 0.1 1\n"
      "POLYGONS 1 5\n4 0 1 2 3\nTRIANGLE_STRIPS 1 5\n4 0 1 4 2\nPOINT_DATA 5\nSCALARS s float\n"));
  REQUIRE(pd.faces.rows() == 4);  // quad: 2, strip of 4 points: 2
  CHECK(pd.vertices(4, 0) == static_cast<double>(0.1f));  // declared float: the float nearest the text
  CHECK(pd.faces(3, 0) == 4);  // the strip's second triangle is flipped: (1 4 2) -> (4 1 2)
  CHECK(pd.faces(3, 1) == 1);
  const SurfaceMesh tet = read_vtk_surface(write_file(
      dir, "tet.vtk",
      "# vtk DataFile Version 3.0\nx\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 4 double\n0 0 0 1 0 0 0 1 0 0 0 1\n"
      "CELLS 1 5\n4 0 1 2 3\nCELL_TYPES 1\n10\n"));
  CHECK(tet.faces.rows() == 4);
  CHECK(tet.vertices.rows() == 4);
}

TEST_CASE("VTK XML: ascii polydata and a base64 array whose header is its own chunk", "[mesh][vtk]") {
  const std::string dir = test::scratch_dir("vtk_xml");
  // Points as base64: header (UInt32 36) encoded alone ("JAAAAA=="), then 9 float32s.
  const std::string points_b64 = "JAAAAA==AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA";
  const SurfaceMesh m = read_vtk_xml(write_file(
      dir, "t.vtp",
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" byte_order=\"LittleEndian\">\n<PolyData>\n"
      "<Piece NumberOfPoints=\"3\" NumberOfPolys=\"1\">\n<Points>\n"
      "<DataArray type=\"Float32\" NumberOfComponents=\"3\" format=\"binary\">" + points_b64 + "</DataArray>\n"
      "</Points>\n<Polys>\n<DataArray type=\"Int32\" Name=\"connectivity\" format=\"ascii\">0 1 2</DataArray>\n"
      "<DataArray type=\"Int32\" Name=\"offsets\" format=\"ascii\">3</DataArray>\n</Polys>\n</Piece>\n</PolyData>\n</VTKFile>\n"));
  REQUIRE(m.vertices.rows() == 3);
  CHECK(m.vertices(1, 0) == 1.0);
  CHECK(m.vertices(2, 1) == 1.0);
  CHECK(m.faces.rows() == 1);
  CHECK_THROWS_WITH(read_vtk_xml(write_file(dir, "bad.vtu", "<VTKFile type=\"ImageData\">")),
                    Catch::Contains("bad.vtu:1") && Catch::Contains("ImageData"));
}

TEST_CASE("frame sequences: natural order, one format per directory, .pvd times", "[mesh][frames]") {
  const std::string dir = test::scratch_dir("sequence");
  const std::string tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
  for (const char* name : {"f10.obj", "f2.obj", "f1.obj"}) write_file(dir, name, tri);
  const FrameSequence seq = list_frame_sequence(dir);
  REQUIRE(seq.files.size() == 3);
  CHECK(seq.files[1][0] == dir + "/f2.obj");
  CHECK_FALSE(seq.times);
  CHECK(natural_less("frame2.obj", "frame10.obj"));
  write_file(dir, "f3.ply", "");
  CHECK_THROWS_WITH(list_frame_sequence(dir), Catch::Contains("several formats (.obj, .ply)"));
  const std::string pvd = write_file(dir, "s.pvd",
                                     "<VTKFile type=\"Collection\"><Collection>\n"
                                     "<DataSet timestep=\"0.5\" part=\"0\" file=\"f1.obj\"/>\n"
                                     "<DataSet timestep=\"1.5\" part=\"0\" file=\"f2.obj\"/>\n</Collection></VTKFile>\n");
  const FrameSequence series = list_frame_sequence(pvd);
  REQUIRE(series.times);
  CHECK(*series.times == std::vector<double>{0.5, 1.5});
  CHECK(series.files[1][0] == dir + "/f2.obj");
  CHECK(list_frame_sequence(dir).times);  // a directory holding one .pvd is that series
  CHECK_THROWS_WITH(read_pvd(write_file(dir, "bad.pvd", "<VTKFile type=\"Collection\">\n<DataSet timestep=\"x\" file=\"a\"/>")),
                    Catch::Contains("bad.pvd:2: bad timestep 'x'"));
  CHECK_THROWS_WITH(list_frame_sequence(dir), Catch::Contains("holds 2 .pvd series"));
}

TEST_CASE("surface components are ordered by their first vertex", "[mesh][frames]") {
  Tris faces(3, 3);
  faces << 5, 6, 7,  //
      0, 1, 2,       //
      2, 3, 1;
  const auto parts = surface_components(faces, 9);  // vertex 4 and 8 are unused
  REQUIRE(parts.size() == 2);
  CHECK(parts[0].vertices == std::vector<int>{0, 1, 2, 3});
  CHECK(parts[0].triangles == std::vector<int>{1, 2});
  CHECK(parts[1].vertices == std::vector<int>{5, 6, 7});
  CHECK(parts[1].triangles == std::vector<int>{0});
}
