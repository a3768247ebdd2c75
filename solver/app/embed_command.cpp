// eipc embed MESH --vertices N --out EMB.msh: build an embedding mesh.
#include "commands.hpp"
#include "eipc/embedding/embedded_body.hpp"
#include "eipc/embedding/lattice_embedding.hpp"
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
  CLI::App* cmd = app.add_subcommand("embed", "Build a coarse embedding tet mesh covering every vertex of a mesh");
  cmd->add_option("mesh", *mesh_path, "tet mesh (.msh, .node/.ele, .vtk) or closed surface (.obj)")->required();
  cmd->add_option("--vertices", *vertices, "target number of embedding vertices (the result is within 20%)")
      ->required()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--out", *out, "output Gmsh mesh (.msh)")->required();
  cmd->callback([=] {
    if (std::filesystem::path(*out).extension() != ".msh")
      throw InputError("--out " + *out + ": embeddings are written as Gmsh ASCII; give a file name ending in .msh");
    prepare_output_file(*out, "--out");
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
