#include "sweep_status.hpp"

#include "slurm_backend.hpp"
#include "sweep_plan_file.hpp"
#include "sweep_records.hpp"
#include "sweep_task.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <unistd.h>

namespace eipc::cli {
namespace {

using nlohmann::json;

std::string this_host() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return host;
}

/// A local attempt (no Slurm ids) is running while its process lives on this host.
bool local_process_alive(const json& attempt) {
  if (attempt.value("host", "") != this_host() || !attempt.contains("pid")) return false;
  return ::kill(attempt["pid"].get<pid_t>(), 0) == 0 || errno == EPERM;
}

}  // namespace

int print_sweep_status(const std::string& dir) {
  const LoadedPlan plan = read_plan_file(dir);
  std::map<std::size_t, QueuedTask> queued;
  std::string slurm_note;
  if (std::filesystem::exists(dir + "/slurm/jobs.txt")) {
    try {
      queued = queued_tasks(dir);
    } catch (const std::exception& e) {
      slurm_note = std::string("warning: cannot ask Slurm which tasks are queued: ") + e.what();
    }
  }
  std::map<std::string, int> totals;
  fmt::print("{:<6} {:<10} {:>5} {:<12} {:<16} {:<12} {}\n", "index", "state", "exit", "certified", "slurm job_task",
             "host", "run");
  for (std::size_t i = 0; i < plan.runs.size(); ++i) {
    const SweepRun& r = plan.runs[i];
    const json record = read_json_file(r.record());
    const json attempt = read_json_file(r.path(".attempt.json"));
    const bool has_attempt = attempt.is_object();
    const bool recorded = record.is_object() && record.value("format", "") == "eipc-sweep-run" &&
                          record.value("parameters", json()) == run_parameters(r, plan.options);
    std::string state = "missing", exit_code, job, host = has_attempt ? attempt.value("host", "") : "";
    if (has_attempt && !attempt.value("slurm_job_id", "").empty())
      job = attempt.value("slurm_job_id", "") + "_" + attempt.value("slurm_array_task_id", "");
    const auto q = queued.find(i);
    const bool attempt_running = has_attempt && attempt["finished"].is_null();
    if (q != queued.end() && q->second.state != "RUNNING" && q->second.state != "COMPLETING") {
      state = "pending";
      job = q->second.job_id + "_" + q->second.task_id;
      host = "";
    } else if (q != queued.end() || (attempt_running && local_process_alive(attempt))) {
      state = "running";
      if (q != queued.end()) job = q->second.job_id + "_" + q->second.task_id;
    } else if (recorded) {
      exit_code = std::to_string(record.value("exit_code", -1));
      state = run_needs(r, plan.options).simulate ? record.value("status", "failed") : "done";
    } else if (attempt_running) {
      state = "killed";  // started, neither recorded nor running: killed hard, or its node failed
    }
    ++totals[state];
    const std::string certified = r.kind == RunKind::reference ? "-" : certified_value(r.certificate());
    fmt::print("{:<6} {:<10} {:>5} {:<12} {:<16} {:<12} {}\n", i, state, exit_code, certified, job, host,
               display_name(r));
  }
  std::string summary;
  for (const auto& [state, n] : totals) summary += fmt::format("{}{} {}", summary.empty() ? "" : ", ", n, state);
  fmt::print("{} runs: {}\n", plan.runs.size(), summary);
  if (!slurm_note.empty()) fmt::print(stderr, "{}\n", slurm_note);
  return 0;
}

}  // namespace eipc::cli
