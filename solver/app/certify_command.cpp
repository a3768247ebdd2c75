// eipc certify FILE.h5 | DIR: exact intersection certification of trajectories.
#include "certify_dataset.hpp"
#include "commands.hpp"
#include "eipc/certify/certify.hpp"

#include <fmt/core.h>

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
  cmd->add_option("--ground", *ground, "ground plane height (overrides the trajectory's)");
  cmd->add_flag("--no-ground", opts->no_ground, "ignore any ground plane");
  cmd->add_option("--threads", opts->threads, "worker threads (0: all cores)");
  auto dataset = std::make_shared<DatasetOptions>();
  auto is_dataset = std::make_shared<bool>(false);
  cmd->add_flag("--dataset", *is_dataset,
                "INPUT is a dataset: one sequence per entry (sub-directory, trajectory, series or frame file), each "
                "certified by its own process; resumable; table in --out (docs/certify.md, Whole datasets)");
  cmd->add_option("--out", dataset->out, "with --dataset: directory for certificates, logs and the table")
      ->needs("--dataset");
  cmd->add_option("--jobs", dataset->jobs, "with --dataset: sequences certified at once (0: all cores)")
      ->needs("--dataset")
      ->check(CLI::NonNegativeNumber);
  cmd->callback([path, opts, ground, dataset, is_dataset] {
    if (*is_dataset) {
      if (dataset->out.empty()) throw InputError("--dataset needs --out DIR (certificates, logs and the table)");
      if (opts->json) throw InputError("--dataset writes DIR/dataset.csv and each sequence's JSON; --json does not apply");
      dataset->root = *path;
      if (opts->continuous) dataset->certify_arguments.push_back("--continuous");
      if (opts->no_ground) dataset->certify_arguments.push_back("--no-ground");
      if (*ground) dataset->certify_arguments.insert(dataset->certify_arguments.end(), {"--ground", fmt::format("{}", **ground)});
      const int code = certify_dataset(*dataset);
      if (code != 0) throw CLI::RuntimeError(code);
      return;
    }
    opts->ground_height = *ground;
    const int code = certify::certify_command(*path, *opts, std::cout, std::cerr);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace eipc::cli
