#include "sweep_task.hpp"

#include "child_process.hpp"
#include "stop_signal.hpp"
#include "sweep_records.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace eipc::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

/// Who executes the run: read by `eipc sweep --status` (running, or killed without a record).
json attempt_record() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return {{"format", "eipc-sweep-attempt"},
          {"version", 1},
          {"host", host},
          {"pid", ::getpid()},
          {"slurm_job_id", env_or_empty("SLURM_ARRAY_JOB_ID")},
          {"slurm_array_task_id", env_or_empty("SLURM_ARRAY_TASK_ID")},
          {"started", utc_now()},
          {"finished", nullptr}};
}

}  // namespace

RunNeeds run_needs(const SweepRun& run, const SweepOptions& o) {
  RunNeeds needs;
  needs.simulate = !run_is_finished(run, o);
  needs.certify = run.kind == RunKind::run && !o.no_certify && (needs.simulate || !has_certificate(run, o));
  return needs;
}

std::string display_name(const SweepRun& run) {
  return run.kind == RunKind::reference ? "reference " + run.trajectory() : run.name;
}

int execute_run(const SweepRun& r, const SweepOptions& o, const std::string& exe) {
  const RunNeeds needs = run_needs(r, o);
  const std::string name = display_name(r);
  json attempt = attempt_record();
  write_file_atomically(r.path(".attempt.json"), attempt.dump(2) + "\n");
  bool certify = needs.certify;
  int code = 0;
  if (needs.simulate) {
    // Whatever is left of an unfinished earlier attempt is replaced.
    for (const char* suffix : {".json", ".certify.json", ".h5", ".xdmf", ".xdmf2", ".fields.h5"})
      fs::remove(r.path(suffix));
    // A peer engine's run starts its own binary; certification is always eipc's.
    std::vector<std::string> argv{r.program.empty() ? exe : r.program};
    argv.insert(argv.end(), r.command.begin(), r.command.end());
    fmt::print(stderr, "[sweep] start  {}\n", name);
    const auto start = Clock::now();
    const std::string out = r.path(".stdout.partial");
    code = wait_passing_on_stop(spawn_child(argv, out, r.log()));
    const auto record = write_run_record(r, o, code, out);
    const std::string status = record.value("status", "failed");
    fmt::print(stderr, "[sweep] done   {}: {} (exit {}) in {:.1f} s\n", name, status, code,
               std::chrono::duration<double>(Clock::now() - start).count());
    if (code != 0) fmt::print(stderr, "[sweep]        see {}\n", r.log());
    certify = certify && status != "failed" && !stop_signal();
  } else {
    fmt::print(stderr, "[sweep] skip   {} (finished earlier)\n", name);
  }
  if (certify) {
    std::vector<std::string> argv{exe, "certify", r.trajectory(), "--json", "--threads", "1"};
    if (o.continuous) argv.push_back("--continuous");
    fmt::print(stderr, "[sweep] certify {}\n", name);
    const auto start = Clock::now();
    const std::string out = r.path(".certify.json.partial");
    const int certify_code = wait_passing_on_stop(spawn_child(argv, out, r.path(".certify.log")));
    if (stop_signal()) {  // interrupted: no certificate, so the next sweep certifies again
      fs::remove(out);
    } else {
      write_certificate(r, certify_code, out);
      fmt::print(stderr, "[sweep] certified {}: {} in {:.1f} s\n", name, certified_value(r.certificate()),
                 std::chrono::duration<double>(Clock::now() - start).count());
    }
  }
  const int stopped = stop_signal() ? 128 + stop_signal() : 0;
  attempt["finished"] = utc_now();
  attempt["exit_code"] = stopped ? stopped : code;
  write_file_atomically(r.path(".attempt.json"), attempt.dump(2) + "\n");
  return stopped ? stopped : code;
}

}  // namespace eipc::cli
