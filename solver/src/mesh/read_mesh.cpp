#include "eipc/mesh/read_mesh.hpp"

#include "eipc/mesh/read_msh.hpp"
#include "eipc/mesh/read_obj.hpp"
#include "eipc/mesh/read_tetgen.hpp"
#include "eipc/mesh/read_vtk.hpp"
#include "eipc/mesh/surface.hpp"
#include "eipc/mesh/surface_file.hpp"
#include "text_file.hpp"

namespace eipc {

std::string mesh_file_extension(const std::string& path) { return mesh_detail::extension_of(path); }

bool is_tet_mesh_extension(const std::string& ext) {
  return ext == ".msh" || ext == ".node" || ext == ".ele" || ext == ".vtk";
}

TetMesh read_tet_mesh(const std::string& path) {
  const std::string ext = mesh_detail::extension_of(path);
  if (ext == ".msh") return read_msh(path);
  if (ext == ".node" || ext == ".ele") return read_tetgen(path);
  if (ext == ".vtk") return read_vtk(path);
  if (is_surface_mesh_extension(ext))
    throw InputError(path + ": a surface mesh; a tetrahedral mesh (.msh, .node/.ele, .vtk) is required here");
  throw InputError(path + ": unknown mesh file extension '" + ext +
                   "' (tetrahedral meshes: .msh, .node/.ele, .vtk)");
}

bool is_surface_mesh_extension(const std::string& ext) {
  return ext == ".obj" || ext == ".stl" || ext == ".ply" || ext == ".vtp";
}

SurfaceMesh read_surface_mesh(const std::string& path) {
  const std::string ext = mesh_detail::extension_of(path);
  if (ext == ".obj") return read_obj(path);
  if (is_surface_mesh_extension(ext)) return read_surface_file(path, false).surfaces.front().mesh;
  if (is_tet_mesh_extension(ext)) return extract_surface(read_tet_mesh(path));
  throw InputError(path + ": unknown mesh file extension '" + ext +
                   "' (surfaces: .obj .stl .ply .vtp, or a tetrahedral mesh file)");
}

}  // namespace eipc
