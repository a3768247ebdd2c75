// eipc certify FILE.h5 | FRAME | SERIES.pvd | DIR: exact intersection certification of
// trajectories and datasets; with --dataset, of every sequence of a dataset (certify_dataset.hpp).
#include "certify_dataset.hpp"
#include "commands.hpp"
#include "eipc/certify/certify.hpp"

#include <fmt/core.h>

#include <iostream>
#include <map>

namespace eipc::cli {

namespace {

struct CertifyCommand {
  std::string input, status_dir;
  certify::CertifyOptions options;
  std::optional<double> ground;
  bool dataset = false, slurm = false;
  DatasetOptions dataset_options;
  SlurmOptions slurm_options;
};

int run_certify(CertifyCommand& c) {
  if (!c.status_dir.empty()) return print_dataset_status(c.status_dir);
  if (c.input.empty()) throw InputError("certify: give the input (a trajectory, frames or, with --dataset, a dataset)");
  if (!c.dataset) {
    if (c.slurm || !c.dataset_options.out.empty()) throw InputError("--out and --slurm need --dataset");
    c.options.ground_height = c.ground;
    return certify::certify_command(c.input, c.options, std::cout, std::cerr);
  }
  DatasetOptions& d = c.dataset_options;
  if (d.out.empty()) throw InputError("--dataset needs --out DIR (certificates, logs and the table)");
  if (c.options.json) throw InputError("--dataset writes DIR/dataset.csv and each sequence's JSON; --json does not apply");
  d.root = c.input;
  if (c.options.continuous) d.certify_arguments.push_back("--continuous");
  if (c.options.no_ground) d.certify_arguments.push_back("--no-ground");
  if (c.options.bodies == certify::BodyRule::components) d.certify_arguments.insert(d.certify_arguments.end(), {"--bodies", "components"});
  if (c.ground) d.certify_arguments.insert(d.certify_arguments.end(), {"--ground", fmt::format("{}", *c.ground)});
  if (c.slurm) d.slurm = c.slurm_options;
  return certify_dataset(d);
}

}  // namespace

CLI::Option* add_bodies_option(CLI::App& cmd, certify::BodyRule& rule, const std::string& help) {
  return cmd.add_option("--bodies", rule, help)
      ->transform(CLI::CheckedTransformer(std::map<std::string, certify::BodyRule>{
          {"objects", certify::BodyRule::objects}, {"components", certify::BodyRule::components}}))
      ->option_text("objects|components");
}

void add_certify_command(CLI::App& app) {
  auto c = std::make_shared<CertifyCommand>();
  CLI::App* cmd = app.add_subcommand("certify", "Exact (CGAL) intersection check of every stored frame; "
                                                "exit 0 all clear, 1 an intersection, 2 bad input");
  cmd->add_option("input", c->input,
                  "trajectory (.h5), frame file (.obj .ply .stl .vtk .vtu .vtp), ParaView series (.pvd), "
                  "directory of frames (see docs/certify.md, Inputs), or with --dataset a dataset");
  add_bodies_option(*cmd, c->options.bodies,
                    "datasets: 'objects' (OBJ objects/groups, a folder per body, .pvd parts; default) or "
                    "'components' (each split into its connected components)");
  cmd->add_flag("--json", c->options.json, "machine-readable report");
  cmd->add_flag("--continuous", c->options.continuous, "also check the straight-line motion between consecutive frames");
  cmd->add_option("--pairs-out", c->options.pairs_out, "with --continuous: write every colliding primitive pair to this CSV")
      ->needs("--continuous");
  cmd->add_option("--ground", c->ground, "ground plane height (overrides the trajectory's)");
  cmd->add_flag("--no-ground", c->options.no_ground, "ignore any ground plane");
  cmd->add_option("--threads", c->options.threads, "worker threads (0: all cores)");
  const std::string datasets = "Datasets (docs/certify.md, Whole datasets)";
  cmd->add_flag("--dataset", c->dataset,
                "INPUT is a dataset: one sequence per entry (sub-directory, trajectory, series or frame file), each "
                "certified by its own process; resumable; table in --out")
      ->group(datasets);
  cmd->add_option("--out", c->dataset_options.out, "directory for certificates, logs and the table")->group(datasets);
  cmd->add_option("--jobs", c->dataset_options.jobs, "sequences certified at once here (0: all cores)")
      ->check(CLI::NonNegativeNumber)
      ->group(datasets);
  cmd->add_option("--status", c->status_dir, "show done / queued / running / missing per sequence of DIR, and exit")
      ->group(datasets);
  cmd->add_flag("--slurm", c->slurm, "certify the sequences as a Slurm job array instead of here")
      ->group("Slurm cluster");
  add_slurm_options(*cmd, c->slurm_options);
  cmd->callback([c] {
    const int code = run_certify(*c);
    if (code != 0) throw CLI::RuntimeError(code);
  });

  // A dataset's unit of work, run by the local pool and by Slurm array tasks; hidden from eipc --help.
  auto task_dir = std::make_shared<std::string>();
  auto task_index = std::make_shared<std::size_t>(0);
  CLI::App* task = app.add_subcommand(
      "certify-task", "Certify one sequence of a dataset's plan (DIR/dataset-plan.json) and record it, as "
                      "`eipc certify --dataset` does; started by its local pool and its Slurm array tasks "
                      "(docs/certify.md), not meant to be typed");
  task->group("");
  task->add_option("dir", *task_dir, "the dataset's --out directory")->required();
  task->add_option("index", *task_index, "the sequence's index in the plan (0-based)")->required();
  task->callback([task_dir, task_index] {
    const int code = certify_task(*task_dir, *task_index);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace eipc::cli
