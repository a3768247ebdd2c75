// eipc embed MESH --vertices N --out EMB.msh: build an embedding tet mesh for a solid;
// --out EMB.obj: a coarse triangle surface for a flat shell (sheet_embedding.hpp).
#include "commands.hpp"
#include "eipc/embedding/embedded_body.hpp"
#include "eipc/embedding/lattice_embedding.hpp"
#include "eipc/embedding/sheet_embedding.hpp"
#include "eipc/io/output_path.hpp"
#include "eipc/mesh/read_mesh.hpp"
#include "eipc/mesh/surface.hpp"
#include "eipc/mesh/validate.hpp"
#include "eipc/mesh/write_mesh.hpp"

#include <filesystem>
#include <fmt/core.h>

namespace eipc::cli {

void add_embed_command(CLI::App& app) {
  auto mesh_path = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  auto vertices = std::make_shared<int>(0);
  CLI::App* cmd = app.add_subcommand(
      "embed", "Build a coarse embedding covering every vertex of a mesh: a tet mesh for a solid (--out .msh), a "
               "coarse triangle surface for a flat shell (--out .obj)");
  cmd->add_option("mesh", *mesh_path,
                  "solid: tet mesh (.msh, .node/.ele, .vtk) or closed surface (.obj); shell: its sheet (.obj .stl .ply .vtp)")
      ->required();
  cmd->add_option("--vertices", *vertices, "target number of embedding vertices (the result is within 20%)")
      ->required()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--out", *out, "output: Gmsh mesh (.msh) for a solid, OBJ surface (.obj) for a shell")->required();
  cmd->callback([=] {
    const auto extension = std::filesystem::path(*out).extension();
    if (extension != ".msh" && extension != ".obj")
      throw InputError("--out " + *out +
                       ": give a file name ending in .msh (a solid's tet embedding, Gmsh ASCII) or .obj (a shell's "
                       "coarse surface)");
    prepare_output_file(*out, "--out");
    if (extension == ".obj") {
      const SurfaceMesh sheet = read_surface_mesh(*mesh_path);
      const SurfaceMesh coarse = sheet_embedding(sheet.vertices, sheet.faces, *vertices, *mesh_path);
      write_obj(*out, coarse);
      fmt::print("shell embedding: {} vertices, {} triangles (target {}), every one of the {} vertices of {} inside one\n",
                 coarse.num_vertices(), coarse.num_faces(), *vertices, sheet.num_vertices(), *mesh_path);
      return;
    }
    const bool surface = std::filesystem::path(*mesh_path).extension() == ".obj";
    Positions points;
    if (surface) {
      const SurfaceMesh s = read_surface_mesh(*mesh_path);
      validate_closed_surface(s.faces, s.num_vertices(), *mesh_path);
      points = s.vertices;
    } else {
      const TetMesh m = read_tet_mesh(*mesh_path);
      validate_tet_mesh(m, *mesh_path);
      points = m.vertices;
    }
    const TetMesh emb = lattice_embedding(points, *vertices);
    validate_tet_mesh(emb, *out);
    write_msh(*out, emb);
    fmt::print("embedding: {} vertices, {} tets (target {}), covers all {} vertices of {}\n", emb.num_vertices(),
               emb.num_tets(), *vertices, points.rows(), *mesh_path);
  });
}

}  // namespace eipc::cli
