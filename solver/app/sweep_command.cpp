// eipc sweep SCENE --dt LIST --embedding LIST --out DIR: every combination as a child
// `eipc run`, several at once, each certified by a child `eipc certify`; resumable.
// Layout and runs.csv: docs/sweep.md.
#include "child_process.hpp"
#include "commands.hpp"
#include "runs_table.hpp"
#include "sweep_plan.hpp"
#include "sweep_records.hpp"

#include "eipc/common.hpp"

#include <fmt/core.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <deque>
#include <filesystem>
#include <map>
#include <sys/wait.h>
#include <thread>

namespace eipc::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t interrupted = 0;
extern "C" void on_interrupt(int sig) { interrupted = sig; }

/// SIGINT/SIGTERM interrupt waitpid (no SA_RESTART) so the sweep can stop its children.
void catch_interrupts() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

enum class TaskKind { run, certify };

struct Task {
  TaskKind kind;
  std::size_t run;  ///< index into the plan
};

struct Running {
  Task task;
  Clock::time_point start;
  std::string stdout_path;
};

class Scheduler {
public:
  Scheduler(const SweepOptions& options, std::vector<SweepRun> runs)
      : o_(options), runs_(std::move(runs)), exe_(self_executable()) {}

  /// Returns 0, or 128 + signal if interrupted (children stopped, their runs left unrecorded).
  int execute() {
    for (std::size_t i = 0; i < runs_.size(); ++i) {
      if (!run_is_finished(runs_[i], o_)) {
        queue_.push_back({TaskKind::run, i});
        ++simulations_;
      } else {
        fmt::print(stderr, "[sweep] skip   {} (finished earlier)\n", runs_[i].name);
        if (wants_certificate(i)) queue_.push_back({TaskKind::certify, i});
      }
    }
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t jobs = o_.jobs > 0 ? std::size_t(o_.jobs) : cores;
    while (!queue_.empty() || !running_.empty()) {
      if (interrupted) return stop_children();
      while (running_.size() < jobs && !queue_.empty()) {
        start(queue_.front());
        queue_.pop_front();
      }
      reap_one();
    }
    return interrupted ? stop_children() : 0;
  }

private:
  bool wants_certificate(std::size_t i) const { return !o_.no_certify && !has_certificate(runs_[i], o_); }

  void start(const Task& t) {
    const SweepRun& r = runs_[t.run];
    // A peer engine's run starts its own binary; certification is always eipc's.
    std::vector<std::string> argv{t.kind == TaskKind::run && !r.program.empty() ? r.program : exe_};
    Running job{t, Clock::now(), ""};
    std::string err;
    if (t.kind == TaskKind::run) {
      // Whatever is left of an unfinished earlier attempt is replaced.
      for (const char* suffix : {".json", ".certify.json", ".h5", ".xdmf"}) fs::remove(r.path(suffix));
      argv.insert(argv.end(), r.command.begin(), r.command.end());
      job.stdout_path = r.path(".stdout.partial");
      err = r.log();
      fmt::print(stderr, "[sweep] start  {} ({} of {} simulations)\n", r.name, ++started_, simulations_);
    } else {
      argv.insert(argv.end(), {"certify", r.trajectory(), "--json", "--threads", "1"});
      if (o_.continuous) argv.push_back("--continuous");
      job.stdout_path = r.path(".certify.json.partial");
      err = r.path(".certify.log");
      fmt::print(stderr, "[sweep] certify {}\n", r.name);
    }
    const pid_t pid = spawn_child(argv, job.stdout_path, err);
    running_.emplace(pid, job);
  }

  /// Stops the running children (their runs are re-run next time) and returns 128 + signal.
  int stop_children() {
    for (const auto& [pid, job] : running_) ::kill(pid, SIGTERM);
    for (const auto& [pid, job] : running_) {
      int status = 0;
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      fmt::print(stderr, "[sweep] stopped {}\n", runs_[job.task.run].name);
    }
    running_.clear();
    fmt::print(stderr, "[sweep] interrupted; finished runs are kept: run the same command to resume\n");
    return 128 + interrupted;
  }

  void reap_one() {
    int status = 0;
    pid_t pid;
    do pid = ::waitpid(-1, &status, 0);
    while (pid < 0 && errno == EINTR && !interrupted);
    if (pid < 0 && interrupted) return;
    const auto it = running_.find(pid);
    if (pid < 0 || it == running_.end()) throw std::runtime_error("sweep: lost track of a child process");
    const Running job = it->second;
    running_.erase(it);
    const int code = exit_code_of(status);
    const double seconds = std::chrono::duration<double>(Clock::now() - job.start).count();
    const SweepRun& r = runs_[job.task.run];
    if (job.task.kind == TaskKind::run) {
      const auto record = write_run_record(r, o_, code, job.stdout_path);
      const std::string st = record.value("status", "failed");
      ++finished_;
      fmt::print(stderr, "[sweep] done   {}: {} (exit {}) in {:.1f} s; {} of {} simulations done, {} running\n",
                 r.name, st, code, seconds, finished_, simulations_, running_.size());
      if (code != 0) fmt::print(stderr, "[sweep]        see {}\n", r.log());
      if (st != "failed" && wants_certificate(job.task.run)) queue_.push_front({TaskKind::certify, job.task.run});
    } else {
      write_certificate(r, code, job.stdout_path);
      fmt::print(stderr, "[sweep] certified {}: {} in {:.1f} s\n", r.name, certified_value(r.certificate()),
                 seconds);
    }
  }

  const SweepOptions& o_;
  std::vector<SweepRun> runs_;
  std::string exe_;
  std::deque<Task> queue_;
  std::map<pid_t, Running> running_;
  int simulations_ = 0, started_ = 0, finished_ = 0;
};

/// 2 if a run had bad input, 3 if a run did not complete, 1 if one is not certified, else 0.
int sweep_exit_code(const std::vector<SweepRun>& runs, const SweepOptions& o) {
  int code = 0;
  for (const SweepRun& r : runs) {
    const auto record = read_json_file(r.record());
    const int exit = record.is_object() ? record.value("exit_code", -1) : -1;
    const std::string status = record.is_object() ? record.value("status", "failed") : "failed";
    if (exit == 2) return 2;
    if (status != "complete") code = 3;
    else if (!o.no_certify && code == 0 && certified_value(r.certificate()) != "yes") code = 1;
  }
  return code;
}

int sweep(const SweepOptions& o) {
  std::vector<SweepRun> runs = plan_sweep(o, self_executable());
  std::error_code ec;
  fs::create_directories(o.out, ec);
  if (ec || !fs::is_directory(o.out)) throw InputError(o.out + ": cannot create the output directory");
  if (o.reference && !fs::is_directory(*o.reference))
    throw InputError("--reference " + *o.reference + ": not a directory");
  catch_interrupts();
  if (const int stopped = Scheduler(o, runs).execute()) return stopped;
  const std::vector<RunRow> rows = collect_runs(o.out, o.reference);
  write_runs_csv(o.out, rows);
  const int code = sweep_exit_code(runs, o);
  fmt::print(stderr, "[sweep] {} runs; table {}/runs.csv; exit {}\n", runs.size(), o.out, code);
  return code;
}

}  // namespace

void add_sweep_command(CLI::App& app) {
  auto o = std::make_shared<SweepOptions>();
  CLI::App* cmd = app.add_subcommand("sweep", "Run a scene at every (embedding, dt), certify each run and write "
                                              "DIR/runs.csv; resumable (finished runs are skipped)");
  cmd->add_option("scene", o->scene, "scene file (JSON)")->required();
  cmd->add_option("--dt", o->dts, "time steps (s), comma separated")->required()->delimiter(',');
  cmd->add_option("--embedding", o->embeddings, "embeddings (full, affine or a name), comma separated")
      ->required()
      ->delimiter(',');
  cmd->add_option("--engine", o->engines,
                  "engines, comma separated: eipc (default) and peers with a binary eipc-<engine> beside eipc "
                  "(bullet, mujoco; docs/peers.md)")
      ->delimiter(',');
  cmd->add_option("--out", o->out, "output directory (see docs/sweep.md)")->required();
  cmd->add_option("--jobs", o->jobs, "simulations at once (default: number of cores)")->check(CLI::NonNegativeNumber);
  cmd->add_option("--reference", o->reference, "reference directory: E(h) against REF/<scenario>/<embedding>.h5 "
                  "(peer engines: REF/<scenario>/<engine>_<embedding>.h5)");
  cmd->add_option("--duration", o->duration, "simulated duration (s), overrides the scene");
  cmd->add_option("--set", o->set, "override a scene field: key.path=value (repeatable)");
  cmd->add_flag("--no-certify", o->no_certify, "do not certify the trajectories");
  cmd->add_flag("--continuous", o->continuous, "certify the motion between frames as well (eipc certify --continuous)");
  cmd->callback([o] {
    const int code = sweep(*o);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace eipc::cli
