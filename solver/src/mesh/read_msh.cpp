// Gmsh ASCII reader. Layouts (one record per line, as Gmsh writes them):
//   2.x  $Nodes: N, then "tag x y z";  $Elements: M, then "tag type ntags tags... nodes..."
//   4.1  $Nodes: "blocks N minTag maxTag", per block "dim entity parametric n", n tags, n coords
//        $Elements: "blocks M minTag maxTag", per block "dim entity type n", n lines "tag nodes..."
#include "eipc/mesh/read_msh.hpp"

#include "text_file.hpp"

#include <array>
#include <string>
#include <unordered_map>
#include <vector>

namespace eipc {
namespace {

using mesh_detail::TextFile;
using Tokens = std::vector<std::string_view>;

constexpr int kGmshTet = 4;

/// Gmsh volume element types other than the 4-node tet (hexes, prisms, pyramids, high order).
bool is_other_volume_type(int type) {
  switch (type) {
    case 5: case 6: case 7: case 11: case 12: case 13: case 14: case 17: case 18: case 19:
    case 29: case 30: case 31: case 92: case 93:
      return true;
    default:
      return false;
  }
}

struct RawTet {
  std::array<long long, 4> node_tags;
  int line;
};

struct MshContent {
  std::vector<long long> node_tags;
  std::vector<Vec3> coords;
  std::vector<RawTet> tets;
  bool has_nodes = false;
  bool has_elements = false;
};

void expect_line(TextFile& f, Tokens& t, const char* what) {
  if (!f.next_line(t)) f.fail_eof(what);
}

void expect_end(TextFile& f, const std::string& section) {
  Tokens t;
  expect_line(f, t, ("$End" + section).c_str());
  if (t[0] != "$End" + section)
    f.fail("expected $End" + section + ", found '" + std::string(t[0]) + "' (count in section header wrong?)");
}

void skip_section(TextFile& f, const std::string& section) {
  Tokens t;
  while (true) {
    expect_line(f, t, ("$End" + section).c_str());
    if (t[0] == "$End" + section) return;
  }
}

Vec3 read_xyz(const TextFile& f, const Tokens& t, std::size_t first) {
  return {f.to_double(t[first], "node x"), f.to_double(t[first + 1], "node y"), f.to_double(t[first + 2], "node z")};
}

void check_volume_type(const TextFile& f, int type) {
  if (is_other_volume_type(type))
    f.fail("unsupported volume element type " + std::to_string(type) + " (only 4-node tetrahedra, type 4)");
}

RawTet read_tet_nodes(const TextFile& f, const Tokens& t, std::size_t first) {
  if (t.size() != first + 4)
    f.fail("tetrahedron (element type 4) has " + std::to_string(static_cast<long>(t.size()) - static_cast<long>(first)) +
           " node tags, expected 4");
  RawTet tet{};
  for (int k = 0; k < 4; ++k) tet.node_tags[k] = f.to_integer(t[first + k], "element node tag");
  tet.line = f.line();
  return tet;
}

void read_nodes_v2(TextFile& f, MshContent& m) {
  Tokens t;
  expect_line(f, t, "node count");
  long long n = f.to_integer(t[0], "node count");
  if (n < 0) f.fail("negative node count");
  for (long long i = 0; i < n; ++i) {
    expect_line(f, t, "nodes");
    if (t[0] == "$EndNodes") f.fail("expected " + std::to_string(n) + " nodes, found " + std::to_string(i));
    if (t.size() != 4) f.fail("node line needs 'tag x y z', found " + std::to_string(t.size()) + " values");
    m.node_tags.push_back(f.to_integer(t[0], "node tag"));
    m.coords.push_back(read_xyz(f, t, 1));
  }
  expect_end(f, "Nodes");
}

void read_elements_v2(TextFile& f, MshContent& m) {
  Tokens t;
  expect_line(f, t, "element count");
  long long n = f.to_integer(t[0], "element count");
  if (n < 0) f.fail("negative element count");
  for (long long i = 0; i < n; ++i) {
    expect_line(f, t, "elements");
    if (t[0] == "$EndElements") f.fail("expected " + std::to_string(n) + " elements, found " + std::to_string(i));
    if (t.size() < 3) f.fail("element line needs 'tag type ntags ...'");
    int type = f.to_int(t[1], "element type");
    int ntags = f.to_int(t[2], "number of element tags");
    if (ntags < 0 || static_cast<std::size_t>(ntags) + 3 > t.size()) f.fail("bad number of element tags");
    check_volume_type(f, type);
    if (type == kGmshTet) m.tets.push_back(read_tet_nodes(f, t, 3 + static_cast<std::size_t>(ntags)));
  }
  expect_end(f, "Elements");
}

void read_nodes_v41(TextFile& f, MshContent& m) {
  Tokens t;
  expect_line(f, t, "$Nodes header");
  if (t.size() != 4) f.fail("$Nodes header needs 'numEntityBlocks numNodes minNodeTag maxNodeTag'");
  long long blocks = f.to_integer(t[0], "number of node blocks");
  long long total = f.to_integer(t[1], "number of nodes");
  for (long long b = 0; b < blocks; ++b) {
    expect_line(f, t, "node block header");
    if (t.size() != 4) f.fail("node block header needs 'entityDim entityTag parametric numNodesInBlock'");
    int dim = f.to_int(t[0], "entity dimension");
    int parametric = f.to_int(t[2], "parametric flag");
    long long n = f.to_integer(t[3], "nodes in block");
    if (dim < 0 || dim > 3 || n < 0) f.fail("bad node block header");
    for (long long i = 0; i < n; ++i) {
      expect_line(f, t, "node tags");
      if (t.size() != 1) f.fail("expected one node tag per line, found " + std::to_string(t.size()) + " values");
      m.node_tags.push_back(f.to_integer(t[0], "node tag"));
    }
    const std::size_t values = 3 + (parametric != 0 ? static_cast<std::size_t>(dim) : 0);
    for (long long i = 0; i < n; ++i) {
      expect_line(f, t, "node coordinates");
      if (t.size() != values)
        f.fail("node coordinates need " + std::to_string(values) + " values, found " + std::to_string(t.size()));
      m.coords.push_back(read_xyz(f, t, 0));
    }
  }
  if (static_cast<long long>(m.coords.size()) != total)
    f.fail("$Nodes header announces " + std::to_string(total) + " nodes, blocks hold " + std::to_string(m.coords.size()));
  expect_end(f, "Nodes");
}

void read_elements_v41(TextFile& f, MshContent& m) {
  Tokens t;
  expect_line(f, t, "$Elements header");
  if (t.size() != 4) f.fail("$Elements header needs 'numEntityBlocks numElements minTag maxTag'");
  long long blocks = f.to_integer(t[0], "number of element blocks");
  long long total = f.to_integer(t[1], "number of elements");
  long long seen = 0;
  for (long long b = 0; b < blocks; ++b) {
    expect_line(f, t, "element block header");
    if (t.size() != 4) f.fail("element block header needs 'entityDim entityTag elementType numElementsInBlock'");
    int dim = f.to_int(t[0], "entity dimension");
    int type = f.to_int(t[2], "element type");
    long long n = f.to_integer(t[3], "elements in block");
    if (n < 0) f.fail("negative element count");
    if (dim == 3 && type != kGmshTet)
      f.fail("unsupported volume element type " + std::to_string(type) + " (only 4-node tetrahedra, type 4)");
    check_volume_type(f, type);
    for (long long i = 0; i < n; ++i) {
      expect_line(f, t, "elements");
      if (t[0] == "$EndElements") f.fail("element block announces " + std::to_string(n) + " elements, found " + std::to_string(i));
      if (type == kGmshTet) m.tets.push_back(read_tet_nodes(f, t, 1));
    }
    seen += n;
  }
  if (seen != total)
    f.fail("$Elements header announces " + std::to_string(total) + " elements, blocks hold " + std::to_string(seen));
  expect_end(f, "Elements");
}

TetMesh assemble(const TextFile& f, const MshContent& m) {
  if (!m.has_nodes) f.fail_file("no $Nodes section");
  if (!m.has_elements) f.fail_file("no $Elements section");
  if (m.tets.empty()) f.fail_file("no tetrahedra (element type 4) in the mesh");
  std::unordered_map<long long, int> index_of;
  index_of.reserve(m.node_tags.size());
  for (std::size_t i = 0; i < m.node_tags.size(); ++i)
    if (!index_of.emplace(m.node_tags[i], static_cast<int>(i)).second)
      f.fail_file("node tag " + std::to_string(m.node_tags[i]) + " defined twice");
  TetMesh mesh;
  mesh.vertices.resize(static_cast<Eigen::Index>(m.coords.size()), 3);
  for (std::size_t i = 0; i < m.coords.size(); ++i) mesh.vertices.row(static_cast<Eigen::Index>(i)) = m.coords[i].transpose();
  mesh.tets.resize(static_cast<Eigen::Index>(m.tets.size()), 4);
  for (std::size_t e = 0; e < m.tets.size(); ++e) {
    for (int k = 0; k < 4; ++k) {
      auto it = index_of.find(m.tets[e].node_tags[k]);
      if (it == index_of.end())
        throw InputError(f.path() + ":" + std::to_string(m.tets[e].line) + ": tetrahedron refers to node tag " +
                         std::to_string(m.tets[e].node_tags[k]) + " that is not defined in $Nodes (index out of range)");
      mesh.tets(static_cast<Eigen::Index>(e), k) = it->second;
    }
  }
  return mesh;
}

}  // namespace

TetMesh read_msh(const std::string& path) {
  TextFile f(path);
  Tokens t;
  if (!f.next_line(t)) f.fail_file("empty file (not a Gmsh mesh)");
  if (t[0] != "$MeshFormat") f.fail("not a Gmsh mesh: expected $MeshFormat, found '" + std::string(t[0]) + "'");
  expect_line(f, t, "$MeshFormat");
  if (t.size() < 3) f.fail("$MeshFormat needs 'version file-type data-size'");
  const std::string version(t[0]);
  const int file_type = f.to_int(t[1], "file type");
  if (file_type != 0) f.fail("binary .msh files are not supported; save the mesh as ASCII");
  const bool v2 = version.size() >= 2 && version.compare(0, 2, "2.") == 0;
  const bool v41 = version == "4.1";
  if (!v2 && !v41) f.fail("unsupported Gmsh format version " + version + " (supported: 2.x and 4.1)");
  expect_end(f, "MeshFormat");

  MshContent m;
  while (f.next_line(t)) {
    const std::string_view head = t[0];
    if (head.empty() || head[0] != '$') f.fail("expected a section start '$Name', found '" + std::string(head) + "'");
    const std::string name(head.substr(1));
    if (name == "Nodes") {
      if (m.has_nodes) f.fail("second $Nodes section");
      v2 ? read_nodes_v2(f, m) : read_nodes_v41(f, m);
      m.has_nodes = true;
    } else if (name == "Elements") {
      if (m.has_elements) f.fail("second $Elements section");
      v2 ? read_elements_v2(f, m) : read_elements_v41(f, m);
      m.has_elements = true;
    } else {
      skip_section(f, name);
    }
  }
  return assemble(f, m);
}

}  // namespace eipc
