#include "eipc/mesh/surface_file.hpp"

#include "eipc/mesh/read_obj.hpp"
#include "eipc/mesh/read_ply.hpp"
#include "eipc/mesh/read_stl.hpp"
#include "eipc/mesh/read_vtk.hpp"
#include "eipc/mesh/read_vtk_xml.hpp"
#include "text_file.hpp"

namespace eipc {
namespace {

SurfaceFile one_surface(SurfaceMesh mesh) {
  SurfaceFile file;
  file.surfaces.push_back({"", std::move(mesh), {}, {}});
  return file;
}

}  // namespace

bool is_surface_frame_extension(const std::string& extension) {
  return extension == ".obj" || extension == ".ply" || extension == ".stl" || extension == ".vtk" ||
         extension == ".vtu" || extension == ".vtp";
}

SurfaceFile read_surface_file(const std::string& path, bool split_objects) {
  const std::string ext = mesh_detail::extension_of(path);
  if (ext == ".obj") return split_objects ? SurfaceFile{read_obj_surfaces(path), {}} : one_surface(read_obj(path));
  if (ext == ".ply") return one_surface(read_ply(path));
  if (ext == ".stl") {
    StlSurface stl = read_stl(path);
    SurfaceFile file = one_surface(std::move(stl.mesh));
    file.notes.push_back(path + ": STL stores triangle corners; " + std::to_string(stl.corners) + " corners joined into " +
                         std::to_string(file.surfaces[0].mesh.vertices.rows()) +
                         " vertices by exact coordinate equality (vertex numbers: order of first appearance)");
    return file;
  }
  if (ext == ".vtk") return one_surface(read_vtk_surface(path));
  if (ext == ".vtu" || ext == ".vtp") return one_surface(read_vtk_xml(path));
  throw InputError(path + ": unknown frame file extension '" + ext + "' (frames: .obj, .ply, .stl, .vtk, .vtu, .vtp)");
}

}  // namespace eipc
