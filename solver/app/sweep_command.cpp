// eipc sweep SCENE --dt LIST --embedding LIST --out DIR: every combination as a task
// (`eipc sweep-task DIR INDEX`: run, then certify), several at once on this machine or
// as a Slurm job array (--slurm); resumable; runs.csv collected the same way for both.
// Layout, runs.csv and the cluster backend: docs/sweep.md.
#include "child_process.hpp"
#include "commands.hpp"
#include "runs_table.hpp"
#include "slurm_backend.hpp"
#include "stop_signal.hpp"
#include "sweep_plan.hpp"
#include "sweep_plan_file.hpp"
#include "sweep_records.hpp"
#include "sweep_status.hpp"
#include "sweep_task.hpp"

#include "eipc/common.hpp"
#include "eipc/io/output_path.hpp"
#include "eipc/scene/scene.hpp"

#include <fmt/core.h>

#include <filesystem>
#include <optional>
#include <thread>

namespace eipc::cli {
namespace {

namespace fs = std::filesystem;

/// The local backend: up to --jobs task children at once, each `eipc sweep-task DIR INDEX`
/// printing its own progress lines on the sweep's stderr. Returns 0, or 128 + signal if
/// interrupted (the tasks stopped, see execute_run).
int run_here(const SweepOptions& o, const std::vector<SweepRun>& runs) {
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (run_needs(runs[i], o).any()) todo.push_back(i);
    else fmt::print(stderr, "[sweep] skip   {} (finished earlier)\n", display_name(runs[i]));
  }
  const std::size_t jobs = o.jobs > 0 ? std::size_t(o.jobs) : std::max(1u, std::thread::hardware_concurrency());
  std::size_t finished = 0;
  const int stopped = run_tasks(
      {self_executable(), "sweep-task"}, o.out, todo, jobs,
      [&](std::size_t, int) { fmt::print(stderr, "[sweep] {} of {} tasks finished\n", ++finished, todo.size()); },
      [&](std::size_t i) { fmt::print(stderr, "[sweep] stopped {}\n", display_name(runs[i])); });
  if (stopped) fmt::print(stderr, "[sweep] interrupted; finished runs are kept: run the same command to resume\n");
  return stopped;
}

/// The Slurm backend: submits the runs that need work and are not queued already.
/// Returns an exit code when done (nothing left to collect, or interrupted), nullopt
/// when every task has ended and runs.csv is to be collected.
std::optional<int> run_on_slurm(const SweepOptions& o, const std::vector<SweepRun>& runs, const SlurmOptions& so) {
  const auto queued = queued_tasks(o.out);
  std::vector<std::size_t> submit;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto q = queued.find(i);
    if (q != queued.end())
      fmt::print(stderr, "[sweep] queued {} (job {}_{}, {})\n", display_name(runs[i]), q->second.job_id,
                 q->second.task_id, q->second.state);
    else if (run_needs(runs[i], o).any())
      submit.push_back(i);
    else
      fmt::print(stderr, "[sweep] skip   {} (finished earlier)\n", display_name(runs[i]));
  }
  if (!submit.empty()) {
    const std::string job = submit_array(o.out, submit, so, ArrayTask{"sweep", {self_executable(), "sweep-task"}});
    fmt::print(stderr, "[sweep] submitted job {}: {} tasks (array {}); task output in {}/slurm\n", job, submit.size(),
               array_ranges(submit), o.out);
  }
  if (submit.empty() && queued.empty()) return std::nullopt;
  if (!so.wait) {
    fmt::print(stderr, "[sweep] `eipc sweep --status {}` shows progress; when the tasks have ended, run the same "
                       "command again (or add --wait) to collect runs.csv\n", o.out);
    return 0;
  }
  if (const int stopped = wait_for_tasks(o.out, "sweep")) return stopped;
  return std::nullopt;
}

/// 2 if a run had bad input, 3 if a run did not complete, 1 if one is not certified, else 0.
int sweep_exit_code(const std::vector<SweepRun>& runs, const SweepOptions& o) {
  int code = 0;
  for (const SweepRun& r : runs) {
    const auto record = read_json_file(r.record());
    const int exit = record.is_object() ? record.value("exit_code", -1) : -1;
    const std::string status = record.is_object() ? record.value("status", "failed") : "failed";
    if (exit == 2) return 2;
    if (status != "complete") code = 3;
    else if (r.kind == RunKind::run && !o.no_certify && code == 0 && certified_value(r.certificate()) != "yes")
      code = 1;
  }
  return code;
}

std::string absolute(const std::string& path) { return fs::absolute(path).lexically_normal().string(); }

int sweep(SweepOptions o, const std::optional<SlurmOptions>& slurm) {
  // Absolute paths: the tasks may run elsewhere (another directory, a cluster node).
  o.scene = absolute(o.scene);
  o.out = absolute(o.out);
  if (o.reference) o.reference = absolute(*o.reference);
  if (o.reference && !o.reference_dt && !fs::is_directory(*o.reference))
    throw InputError("--reference " + *o.reference + ": not a directory");
  const std::vector<SweepRun> runs = plan_sweep(o, self_executable());
  // Every embedding name and --set is checked once here, so a typo is exit 2 before any run.
  for (const std::string& embedding : o.embeddings)
    load_scene(o.scene, SceneOverrides{o.dts.front(), o.duration, embedding, o.set});
  prepare_output_directory(o.out, "--out");
  if (runs.front().dir != o.out) prepare_output_directory(runs.front().dir, "--reference");
  catch_stop_signals();
  if (slurm) {
    std::vector<std::string> names;
    for (const SweepRun& r : runs) names.push_back(r.trajectory());
    const std::vector<std::string> planned = planned_run_names(o.out);
    if (!planned.empty() && planned != names && !queued_tasks(o.out).empty())
      throw InputError("--out " + o.out + ": tasks of another sweep into this directory are still queued "
                       "(eipc sweep --status " + o.out + "); wait for them or scancel them first");
  }
  write_plan_file(o, runs);
  if (slurm) {
    if (const std::optional<int> code = run_on_slurm(o, runs, *slurm)) return *code;
  } else if (const int stopped = run_here(o, runs)) {
    return stopped;
  }
  write_runs_csv(o.out, collect_runs(o.out, o.reference));
  const int code = sweep_exit_code(runs, o);
  fmt::print(stderr, "[sweep] {} runs; table {}/runs.csv; exit {}\n", runs.size(), o.out, code);
  return code;
}

/// `eipc sweep-task DIR INDEX`: one run of DIR/sweep-plan.json (see sweep_task.hpp).
int sweep_task(const std::string& dir, std::size_t index) {
  catch_stop_signals();
  const LoadedPlan plan = read_plan_file(absolute(dir));
  if (index >= plan.runs.size())
    throw InputError(fmt::format("{}: no run {} (the plan has {})", plan_file_path(dir), index, plan.runs.size()));
  return execute_run(plan.runs[index], plan.options, self_executable());
}

void require(bool given, const char* what) {
  if (!given) throw InputError(std::string(what) + " is required (unless --status DIR)");
}

}  // namespace

void add_sweep_command(CLI::App& app) {
  auto o = std::make_shared<SweepOptions>();
  auto so = std::make_shared<SlurmOptions>();
  auto use_slurm = std::make_shared<bool>(false);
  auto status_dir = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("sweep", "Run a scene at every (embedding, dt), certify each run and write "
                                              "DIR/runs.csv; resumable (finished runs are skipped); locally or "
                                              "on Slurm (--slurm)");
  cmd->add_option("scene", o->scene, "scene file (JSON)");
  cmd->add_option("--dt", o->dts, "time steps (s), comma separated")->delimiter(',');
  cmd->add_option("--embedding", o->embeddings, "embeddings (full, affine or a name), comma separated")
      ->delimiter(',');
  cmd->add_option("--engine", o->engines,
                  "engines, comma separated: eipc (default) and peers with a binary eipc-<engine> beside eipc "
                  "(bullet, mujoco; docs/peers.md)")
      ->delimiter(',');
  cmd->add_option("--out", o->out, "output directory (see docs/sweep.md)");
  cmd->add_option("--jobs", o->jobs, "simulations at once (default: number of cores)")->check(CLI::NonNegativeNumber);
  cmd->add_option("--reference", o->reference, "reference directory: E(h) against REF/<scenario>/<embedding>.h5 "
                  "(peer engines: REF/<scenario>/<engine>_<embedding>.h5)");
  cmd->add_option("--reference-dt", o->reference_dt,
                  "make the missing references of --reference at this time step, as tasks of the sweep");
  cmd->add_option("--duration", o->duration, "simulated duration (s), overrides the scene");
  cmd->add_option("--set", o->set, "override a scene field: key.path=value (repeatable)");
#ifdef EIPC_PEER_CONFIG_DIR
  o->peer_config = EIPC_PEER_CONFIG_DIR;
#endif
  cmd->add_option("--peer-config", o->peer_config,
                  "directory of the peers' per-scene settings <engine>_<scenario>.toml, passed as --config to "
                  "that peer's runs; '' for the drivers' defaults (docs/peers.md)")
      ->capture_default_str();
  cmd->add_flag("--no-certify", o->no_certify, "do not certify the trajectories");
  cmd->add_flag("--continuous", o->continuous, "certify the motion between frames as well (eipc certify --continuous)");
  cmd->add_option("--status", *status_dir, "show done / running / failed per run of the sweep in DIR, and exit");
  cmd->add_flag("--slurm", *use_slurm, "submit the runs as a Slurm job array instead of running them here")
      ->group("Slurm cluster");
  add_slurm_options(*cmd, *so);
  cmd->callback([o, so, use_slurm, status_dir] {
    int code = 0;
    if (!status_dir->empty()) {
      code = print_sweep_status(*status_dir);
    } else {
      require(!o->scene.empty(), "the scene file");
      require(!o->dts.empty(), "--dt");
      require(!o->embeddings.empty(), "--embedding");
      require(!o->out.empty(), "--out");
      code = sweep(*o, *use_slurm ? std::optional<SlurmOptions>(*so) : std::nullopt);
    }
    if (code != 0) throw CLI::RuntimeError(code);
  });

  // The unit both backends execute; hidden from eipc --help (an empty group), described in its own.
  auto task_dir = std::make_shared<std::string>();
  auto task_index = std::make_shared<std::size_t>(0);
  CLI::App* task = app.add_subcommand(
      "sweep-task", "Run and certify one run of a sweep directory's plan (DIR/sweep-plan.json), recording it as "
                    "`eipc sweep` does; started by the sweep's local pool and by its Slurm array tasks "
                    "(docs/sweep.md), not meant to be typed");
  task->group("");
  task->add_option("dir", *task_dir, "the sweep directory (the --out of `eipc sweep`)")->required();
  task->add_option("index", *task_index, "the run's index in the plan (0-based)")->required();
  task->callback([task_dir, task_index] {
    const int code = sweep_task(*task_dir, *task_index);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace eipc::cli
