// eipc ccd QUERIES: audit the solver's narrow-phase CCD on published query sets.
#include "commands.hpp"
#include "eipc/common.hpp"
#include "ccd_queries.hpp"

#include <fstream>
#include <iostream>

namespace eipc::cli {

void add_ccd_command(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  auto exact = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand(
      "ccd", "Run the narrow-phase CCD on queries: one per line, vf,x0,y0,z0,...,x7,y7,z7 or ee,...; "
             "prints '1 TOI' or '0' per query");
  cmd->add_option("queries", *path, "query file ('-' for standard input)")->required();
  cmd->add_flag("--exact", *exact,
                "also print the exact verdict: 'exact 1 T_LO T_HI' (touches, first contact in [T_LO, T_HI]) or 'exact 0'");
  cmd->callback([path, exact] {
    if (*path == "-") {
      run_ccd_queries(std::cin, std::cout, *exact);
      return;
    }
    std::ifstream in(*path);
    if (!in) throw InputError(*path + ": cannot open query file");
    run_ccd_queries(in, std::cout, *exact);
  });
}

}  // namespace eipc::cli
