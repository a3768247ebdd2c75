// eipc certify FILE.h5 | DIR: exact intersection certification of trajectories.
#include "commands.hpp"
#include "eipc/certify/certify.hpp"

#include <iostream>

namespace eipc::cli {

void add_certify_command(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  auto opts = std::make_shared<certify::CertifyOptions>();
  auto ground = std::make_shared<std::optional<double>>();
  CLI::App* cmd = app.add_subcommand("certify", "Exact (CGAL) intersection check of every stored frame; "
                                                "exit 0 all clear, 1 an intersection, 2 bad input");
  cmd->add_option("input", *path, "trajectory (.h5), OBJ file or directory of OBJ frames (see docs/certify.md)")
      ->required();
  cmd->add_flag("--json", opts->json, "machine-readable report");
  cmd->add_flag("--continuous", opts->continuous, "also check the straight-line motion between consecutive frames");
  cmd->add_option("--pairs-out", opts->pairs_out, "with --continuous: write every colliding primitive pair to this CSV")
      ->needs("--continuous");
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
