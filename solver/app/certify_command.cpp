// eipc certify FILE.h5 | FRAME | SERIES.pvd | DIR: exact intersection certification of trajectories and datasets.
#include "commands.hpp"
#include "eipc/certify/certify.hpp"

#include <iostream>
#include <map>

namespace eipc::cli {

void add_certify_command(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  auto opts = std::make_shared<certify::CertifyOptions>();
  auto ground = std::make_shared<std::optional<double>>();
  CLI::App* cmd = app.add_subcommand("certify", "Exact (CGAL) intersection check of every stored frame; "
                                                "exit 0 all clear, 1 an intersection, 2 bad input");
  cmd->add_option("input", *path,
                  "trajectory (.h5), frame file (.obj .ply .stl .vtk .vtu .vtp), ParaView series (.pvd) or "
                  "directory of frames (see docs/certify.md, Inputs)")
      ->required();
  cmd->add_option("--bodies", opts->bodies,
                  "datasets: 'objects' (OBJ objects/groups, a folder per body, .pvd parts; default) or "
                  "'components' (each split into its connected components)")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, certify::BodyRule>{{"objects", certify::BodyRule::objects},
                                                   {"components", certify::BodyRule::components}}))
      ->option_text("objects|components");
  cmd->add_flag("--json", opts->json, "machine-readable report");
  cmd->add_flag("--continuous", opts->continuous, "also check the straight-line motion between consecutive frames");
  cmd->add_option("--ground", *ground, "ground plane height (overrides the trajectory's)");
  cmd->add_flag("--no-ground", opts->no_ground, "ignore any ground plane");
  cmd->add_option("--threads", opts->threads, "worker threads (0: all cores)");
  cmd->callback([path, opts, ground] {
    opts->ground_height = *ground;
    const int code = certify::certify_command(*path, *opts, std::cout, std::cerr);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace eipc::cli
