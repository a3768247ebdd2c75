#include "slurm_backend.hpp"

#include "stop_signal.hpp"
#include "sweep_records.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace eipc::cli {
namespace {

namespace fs = std::filesystem;

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct Output {
  int code;
  std::string out, err;
};

/// Runs a Slurm client command (found on PATH) and captures its output.
Output capture(const std::vector<std::string>& argv, const std::string& dir) {
  const std::string err_file = dir + "/slurm/.stderr." + std::to_string(::getpid());
  std::string cmd;
  for (const std::string& a : argv) cmd += shell_quote(a) + " ";
  cmd += "2>" + shell_quote(err_file);
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot start " + argv[0]);
  Output o;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, pipe)) o.out.append(buf, n);
  const int status = ::pclose(pipe);
  o.code = WIFEXITED(status) ? WEXITSTATUS(status) : 255;
  o.err = file_tail(err_file);
  fs::remove(err_file);
  if (o.code == 127) throw std::runtime_error(argv[0] + ": not found (is Slurm's client installed and on PATH?)");
  return o;
}

std::string jobs_file(const std::string& dir) { return dir + "/slurm/jobs.txt"; }

/// Job ids of the sweep's submissions, oldest first.
std::vector<std::string> submitted_jobs(const std::string& dir) {
  std::ifstream in(jobs_file(dir));
  std::vector<std::string> jobs;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string job;
    if (s >> job) jobs.push_back(job);
  }
  return jobs;
}

}  // namespace

std::string array_ranges(const std::vector<std::size_t>& indexes) {
  std::string text;
  for (std::size_t i = 0; i < indexes.size();) {
    std::size_t j = i;
    while (j + 1 < indexes.size() && indexes[j + 1] == indexes[j] + 1) ++j;
    text += (text.empty() ? "" : ",") + std::to_string(indexes[i]);
    if (j > i) text += "-" + std::to_string(indexes[j]);
    i = j + 1;
  }
  return text;
}

std::map<std::size_t, QueuedTask> queued_tasks(const std::string& dir) {
  std::map<std::size_t, QueuedTask> tasks;
  for (const std::string& job : submitted_jobs(dir)) {
    // -r: one line per array task, also for pending ones.
    const Output o = capture({"squeue", "-h", "-r", "-j", job, "-o", "%K %T"}, dir);
    if (o.code != 0) {
      // Slurm forgets finished jobs (MinJobAge): nothing of this submission is queued.
      if (o.err.find("Invalid job id") != std::string::npos) continue;
      throw std::runtime_error("squeue -j " + job + " failed (exit " + std::to_string(o.code) + "): " + o.err);
    }
    std::istringstream lines(o.out);
    std::string task, state;
    while (lines >> task >> state) {
      // Array task ids are plan indexes; a later submission's entry replaces an earlier one.
      if (task.empty() || !std::all_of(task.begin(), task.end(), ::isdigit)) continue;
      tasks[std::stoul(task)] = {job, task, state};
    }
  }
  return tasks;
}

std::string submit_array(const std::string& dir, const std::vector<std::size_t>& indexes, const SlurmOptions& so,
                         const ArrayTask& task) {
  const std::string slurm_dir = dir + "/slurm";
  fs::create_directories(slurm_dir);
  const std::string script = slurm_dir + "/" + task.name + "-array.sh";
  std::string command;
  for (const std::string& a : task.command) command += shell_quote(a) + " ";
  // exec: the task is the job step's main process, so scancel's SIGTERM reaches it and the
  // run gets to mark its trajectory incomplete (a shell in between would just die).
  write_file_atomically(script, "#!/bin/sh\n"
                                "# One task of the " + task.name + " in " + dir + " (written by eipc " + task.name +
                                " --slurm;\n# the array task id is the index in its plan file).\n"
                                "exec " + command + shell_quote(dir) + " \"$SLURM_ARRAY_TASK_ID\"\n");
  ::chmod(script.c_str(), 0755);
  std::string array = array_ranges(indexes);
  if (so.throttle > 0) array += "%" + std::to_string(so.throttle);
  std::vector<std::string> argv{"sbatch", "--parsable", "--job-name=eipc-" + task.name, "--array=" + array,
                                "--ntasks=1", "--cpus-per-task=1", "--output=" + slurm_dir + "/%A_%a.out"};
  if (so.partition) argv.push_back("--partition=" + *so.partition);
  if (so.time) argv.push_back("--time=" + *so.time);
  if (so.mem) argv.push_back("--mem=" + *so.mem);
  argv.insert(argv.end(), so.sbatch_args.begin(), so.sbatch_args.end());
  argv.push_back(script);
  const Output o = capture(argv, dir);
  std::string job = o.out.substr(0, o.out.find_first_of(";\n"));  // --parsable: "id" or "id;cluster"
  if (o.code != 0 || job.empty()) {
    std::string cmd;
    for (const std::string& a : argv) cmd += " " + a;
    throw std::runtime_error("sbatch failed (exit " + std::to_string(o.code) + "):" + cmd + "\n" + o.err);
  }
  std::ofstream(jobs_file(dir), std::ios::app) << job << " " << array_ranges(indexes) << "\n";
  return job;
}

int wait_for_tasks(const std::string& dir, const std::string& label) {
  std::string last;
  double pause = 1.0;  // seconds; grows to 30 s so a long wait does not load the controller
  for (;;) {
    const auto tasks = queued_tasks(dir);
    if (tasks.empty()) return 0;
    std::size_t running = 0;
    for (const auto& [index, t] : tasks) running += t.state == "RUNNING";
    const std::string counts = fmt::format("{} running, {} waiting", running, tasks.size() - running);
    if (counts != last) fmt::print(stderr, "[{}] slurm: {}\n", label, counts);
    last = counts;
    for (double slept = 0; slept < pause; slept += 0.1) {
      if (stop_signal()) {
        fmt::print(stderr, "[{}] stopped waiting; the tasks go on (eipc {} --status {})\n", label, label, dir);
        return 128 + stop_signal();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    pause = std::min(30.0, pause * 1.5);
  }
}

void add_slurm_options(CLI::App& cmd, SlurmOptions& so) {
  const std::string cluster = "Slurm cluster";
  cmd.add_option("--partition", so.partition, "sbatch --partition")->group(cluster);
  cmd.add_option("--time", so.time, "time limit per task (sbatch --time, e.g. 30:00)")->group(cluster);
  cmd.add_option("--mem", so.mem, "memory per task (sbatch --mem, e.g. 2G)")->group(cluster);
  cmd.add_option("--throttle", so.throttle, "at most N tasks at once (--array=...%N)")
      ->check(CLI::NonNegativeNumber)
      ->group(cluster);
  cmd.add_option("--sbatch-arg", so.sbatch_args, "extra sbatch argument, e.g. --sbatch-arg=--account=X (repeatable)")
      ->group(cluster);
  cmd.add_flag("--wait", so.wait, "wait for the tasks, then collect the table")->group(cluster);
}

}  // namespace eipc::cli
