// eipc ccd QUERIES: audit the solver's narrow-phase CCD on published query sets.
#include "commands.hpp"
#include "eipc/common.hpp"
#include "ccd_queries.hpp"

#include <fstream>
#include <iostream>

namespace eipc::cli {

void add_ccd_command(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "ccd", "Run the narrow-phase CCD on queries: one per line, vf,x0,y0,z0,...,x7,y7,z7 or ee,...; "
             "prints '1 TOI' or '0' per query");
  cmd->add_option("queries", *path, "query file ('-' for standard input)")->required();
  cmd->callback([path] {
    if (*path == "-") {
      run_ccd_queries(std::cin, std::cout);
      return;
    }
    std::ifstream in(*path);
    if (!in) throw InputError(*path + ": cannot open query file");
    run_ccd_queries(in, std::cout);
  });
}

}  // namespace eipc::cli
