#include "eipc/mesh/write_mesh.hpp"

#include <cstdio>
#include <fstream>
#include <functional>
#include <unistd.h>

namespace eipc {
namespace {

/// Writes through `body` into "<path>.tmp.<pid>", then renames it to `path`: two
/// processes writing the same file (a cache) each rename a whole file into place.
void write_atomically(const std::string& path, const std::function<void(std::ostream&)>& body) {
  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(path + ": cannot open for writing");
    out.precision(17);
    body(out);
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      throw InputError(path + ": write failed");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw InputError(path + ": cannot rename temporary file into place");
  }
}

}  // namespace

void write_msh(const std::string& path, const TetMesh& mesh) {
  write_atomically(path, [&](std::ostream& out) {
    out << "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n" << mesh.vertices.rows() << "\n";
    for (Eigen::Index i = 0; i < mesh.vertices.rows(); ++i)
      out << i + 1 << ' ' << mesh.vertices(i, 0) << ' ' << mesh.vertices(i, 1) << ' ' << mesh.vertices(i, 2) << '\n';
    out << "$EndNodes\n$Elements\n" << mesh.tets.rows() << "\n";
    for (Eigen::Index t = 0; t < mesh.tets.rows(); ++t)  // tag type=4 ntags=2 physical=1 elementary=1 nodes
      out << t + 1 << " 4 2 1 1 " << mesh.tets(t, 0) + 1 << ' ' << mesh.tets(t, 1) + 1 << ' ' << mesh.tets(t, 2) + 1 << ' '
          << mesh.tets(t, 3) + 1 << '\n';
    out << "$EndElements\n";
  });
}

void write_obj(const std::string& path, const SurfaceMesh& mesh) {
  write_atomically(path, [&](std::ostream& out) {
    for (Eigen::Index i = 0; i < mesh.vertices.rows(); ++i)
      out << "v " << mesh.vertices(i, 0) << ' ' << mesh.vertices(i, 1) << ' ' << mesh.vertices(i, 2) << '\n';
    for (Eigen::Index f = 0; f < mesh.faces.rows(); ++f)
      out << "f " << mesh.faces(f, 0) + 1 << ' ' << mesh.faces(f, 1) + 1 << ' ' << mesh.faces(f, 2) + 1 << '\n';
  });
}

}  // namespace eipc
