#include "certify_dataset.hpp"

#include "child_process.hpp"
#include "stop_signal.hpp"
#include "sweep_records.hpp"

#include "eipc/mesh/frame_sequence.hpp"
#include "eipc/mesh/surface_file.hpp"
#include "eipc/common.hpp"
#include "eipc/io/csv_field.hpp"
#include "eipc/io/output_path.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>
#include <unistd.h>

namespace eipc::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

/// What `eipc certify` reads as one sequence when it is an entry of the dataset's root.
bool is_sequence(const fs::directory_entry& e) {
  const std::string name = e.path().filename().string();
  if (name.empty() || name[0] == '.') return false;
  if (e.is_directory()) return true;
  const std::string ext = e.path().extension().string();
  return e.is_regular_file() && (ext == ".h5" || ext == ".pvd" || is_surface_frame_extension(ext));
}

std::vector<fs::path> find_sequences(const DatasetOptions& o) {
  std::error_code ec;
  if (!fs::is_directory(o.root, ec))
    throw InputError(o.root + ": not a directory (a dataset holds one sequence per entry)");
  const fs::path out = fs::weakly_canonical(o.out);
  std::vector<fs::path> found;
  for (const auto& e : fs::directory_iterator(o.root))
    if (is_sequence(e) && fs::weakly_canonical(e.path()) != out) found.push_back(e.path());
  std::sort(found.begin(), found.end(), [](const fs::path& a, const fs::path& b) {
    return natural_less(a.filename().string(), b.filename().string());
  });
  if (found.empty())
    throw InputError(o.root + ": no sequence found (sub-directories, or .h5, .pvd, .obj, .ply, .stl, .vtk, .vtu, .vtp files)");
  return found;
}

/// The files of one sequence's certification in OUT.
struct SequenceFiles {
  std::string name, certificate, log, pairs, record;
  explicit SequenceFiles(const fs::path& sequence, const std::string& out)
      : name(sequence.filename().string()),
        certificate((fs::path(out) / (name + ".certify.json")).string()),
        log((fs::path(out) / (name + ".certify.log")).string()),
        pairs((fs::path(out) / (name + ".pairs.csv")).string()),
        record((fs::path(out) / (name + ".record.json")).string()) {}
};

/// Finished: a record of a certification that ended (0, 1 or 2) with the same arguments.
bool is_finished(const SequenceFiles& f, const json& arguments) {
  const json record = read_json_file(f.record);
  if (!record.is_object() || record.value("format", "") != "eipc-certify-dataset-run") return false;
  const int code = record.value("exit_code", -1);
  return code >= 0 && code <= 2 && record.value("arguments", json()) == arguments;
}

/// The table's columns (docs/certify.md, "Whole datasets", says what each holds).
const std::vector<std::string> kColumns = {
    "sequence", "status", "exit_code", "frames", "failed_frames", "intersecting_body_pairs",
    "max_intersecting_triangle_pairs", "max_depth", "first_failure_frame", "first_failure_time",
    "motions_collision", "motions_inconclusive", "motion_colliding_pairs", "seconds", "problem"};

/// A row's cell by column name.
const std::string& cell_of(const std::vector<std::string>& row, const std::string& column) {
  return row.at(static_cast<std::size_t>(std::find(kColumns.begin(), kColumns.end(), column) - kColumns.begin()));
}

/// One row of the table from a sequence's record and certificate.
std::vector<std::string> table_row(const SequenceFiles& f) {
  const json record = read_json_file(f.record);
  const json cert = read_json_file(f.certificate);
  const int code = record.is_object() ? record.value("exit_code", -1) : -1;
  // A report (exit 0 or 1) has frames and a summary; bad input and failures have none.
  const bool reported = (code == 0 || code == 1) && cert.is_object() && cert.contains("summary");
  const json summary = reported ? cert["summary"] : json::object();
  const auto number = [&](const char* key) -> std::string {
    if (!summary.contains(key) || summary[key].is_null()) return "";
    return summary[key].is_number_integer() ? std::to_string(summary[key].get<long long>())
                                            : fmt::format("{}", summary[key].get<double>());
  };
  // Summed or maximised over the certificate's frames and motions.
  const auto over = [&](const char* list, auto&& value, bool sum) -> std::string {
    if (!reported) return "";
    long long total = 0;
    for (const json& item : cert.value(list, json::array()))
      total = sum ? total + value(item) : std::max(total, value(item));
    return std::to_string(total);
  };
  std::string status = code == 0 ? "clear" : code == 1 ? "not clear" : code == 2 ? "bad input" : "failed";
  if (code == 1 && summary.value("failed_frames", 0) > 0) status = "intersecting";
  else if (code == 1 && summary.value("motions_collision", 0) > 0) status = "motion collides";
  else if (code == 1 && summary.value("motions_inconclusive", 0) > 0) status = "motion undecided";
  // Motions are checked only with --continuous: a 0 there would read as "checked, none".
  const bool motions_checked = reported && cert.value("continuous", false);
  const auto motions = [&](const std::string& cell) { return reported && !motions_checked ? "not checked" : cell; };
  std::string problem;
  if (code == 2 || code < 0) {  // the first line of the child's message
    std::ifstream log(f.log);
    std::getline(log, problem);
  }
  return {f.name,
          status,
          std::to_string(code),
          number("frames"),
          number("failed_frames"),
          reported ? std::to_string(summary.value("pairs", json::array()).size()) : "",
          over("frames", [](const json& frame) {
            return frame.value("counts", json::object()).value("triangle_pairs", 0LL);
          }, false),
          number("max_depth"),
          number("first_intersection_frame"),
          number("first_intersection_time"),
          motions(number("motions_collision")),
          motions(number("motions_inconclusive")),
          motions(over("motions", [](const json& motion) { return motion.value("collisions", 0LL); }, true)),
          record.is_object() ? fmt::format("{:.3f}", record.value("seconds", 0.0)) : "",
          problem};
}

/// DIR/dataset-plan.json: what the tasks certify, with which arguments.
struct Plan {
  std::string root, out;
  std::vector<std::string> arguments;
  int threads = 1;  ///< --threads of each `eipc certify`
  std::vector<fs::path> sequences;
};

std::string plan_path(const std::string& dir) { return (fs::path(dir) / "dataset-plan.json").string(); }

void write_plan(const Plan& p) {
  json sequences = json::array();
  for (const fs::path& s : p.sequences) sequences.push_back(s.string());
  write_file_atomically(plan_path(p.out), json{{"format", "eipc-certify-dataset-plan"},
                                               {"root", p.root},
                                               {"arguments", p.arguments},
                                               {"threads", p.threads},
                                               {"sequences", sequences}}
                                              .dump(2));
}

Plan read_plan(const std::string& dir) {
  const json j = read_json_file(plan_path(dir));
  if (!j.is_object() || j.value("format", "") != "eipc-certify-dataset-plan")
    throw InputError(plan_path(dir) + ": not a dataset plan (made by eipc certify ROOT --dataset --out " + dir + ")");
  Plan p;
  p.root = j.value("root", "");
  p.out = fs::absolute(dir).lexically_normal().string();
  p.arguments = j.value("arguments", std::vector<std::string>{});
  p.threads = j.value("threads", 1);
  for (const std::string& s : j.value("sequences", std::vector<std::string>{})) p.sequences.emplace_back(s);
  return p;
}

/// OUT/dataset.csv and OUT/dataset.md from every sequence's files. Returns the exit code.
int write_table(const Plan& o, const std::vector<fs::path>& sequences) {
  std::string csv, md;
  for (const std::string& c : kColumns) csv += (csv.empty() ? "" : ",") + c;
  csv += "\n";
  std::map<std::string, int> counts;
  std::string rows;
  int code = 0;
  for (const fs::path& s : sequences) {
    const std::vector<std::string> row = table_row(SequenceFiles(s, o.out));
    std::string line;
    for (const std::string& cell : row) line += (line.empty() ? "" : ",") + csv_field(cell);
    csv += line + "\n";
    ++counts[cell_of(row, "status")];
    std::string md_row = "|";
    for (std::string cell : row) {
      for (std::size_t p = cell.find('|'); p != std::string::npos; p = cell.find('|', p + 2)) cell.replace(p, 1, "\\|");
      md_row += " " + cell + " |";
    }
    rows += md_row + "\n";
    const int c = std::stoi(cell_of(row, "exit_code"));
    if (c == 2 || c < 0) code = 2;
    else if (c == 1 && code == 0) code = 1;
  }
  md = "# Certification of " + o.root + "\n\n" + std::to_string(sequences.size()) + " sequences:";
  for (const auto& [status, n] : counts) md += fmt::format(" {} {},", n, status);
  md.back() = '.';
  md += "\n\nMade by `eipc certify " + o.root + " --dataset --out " + o.out;
  for (const std::string& a : o.arguments) md += " " + a;
  md += "`; certificates and logs beside this file (docs/certify.md, \"Whole datasets\", says what each column "
        "counts). `max_depth` is a length in the sequence's own unit: metres for eipc trajectories (.h5), the "
        "files' unit for meshes. Motions are checked only with --continuous (else `not checked`).\n\n|";
  for (const std::string& c : kColumns) md += " " + c + " |";
  md += "\n|";
  for (std::size_t i = 0; i < kColumns.size(); ++i) md += "---|";
  md += "\n" + rows;
  write_file_atomically((fs::path(o.out) / "dataset.csv").string(), csv);
  write_file_atomically((fs::path(o.out) / "dataset.md").string(), md);
  return code;
}

/// Runs the tasks here, --jobs at once, printing a line (or a bar) per finished sequence.
/// Returns 0, or 128 + signal if interrupted (the tasks stop and leave no record).
int run_here(const Plan& plan, const std::vector<std::size_t>& todo, std::size_t jobs) {
  const bool bar = isatty(STDERR_FILENO);
  std::size_t done = 0, not_clear = 0;
  const auto finished = [&](std::size_t i, int) {
    const SequenceFiles f(plan.sequences[i], plan.out);
    const std::vector<std::string> row = table_row(f);  // the table's own status words
    const std::string& verdict = cell_of(row, "status");
    ++done;
    if (verdict != "clear") ++not_clear;
    if (bar) {
      const std::size_t width = 30, filled = width * done / todo.size();
      fmt::print(stderr, "\r[{}{}] {}/{} sequences, {} not clear; last: {} {}        ", std::string(filled, '#'),
                 std::string(width - filled, '.'), done, todo.size(), not_clear, f.name, verdict);
    } else {
      fmt::print(stderr, "[certify] {}/{} {}: {} ({} s)\n", done, todo.size(), f.name, verdict,
                 cell_of(row, "seconds"));
    }
  };
  const int stopped = run_tasks({self_executable(), "certify-task"}, plan.out, todo, jobs, finished,
                                [](std::size_t) {});
  if (bar && done > 0) fmt::print(stderr, "\n");
  if (stopped) fmt::print(stderr, "[certify] interrupted; finished sequences are kept: run the same command to resume\n");
  return stopped;
}

/// Submits the tasks Slurm does not list already. Returns an exit code when there is
/// nothing to collect yet (submitted without --wait, or interrupted), else nullopt.
std::optional<int> run_on_slurm(const Plan& plan, const std::vector<std::size_t>& todo, const SlurmOptions& so) {
  const auto queued = queued_tasks(plan.out);
  std::vector<std::size_t> submit;
  for (std::size_t i : todo)
    if (!queued.count(i)) submit.push_back(i);
  if (!submit.empty()) {
    const std::string job =
        submit_array(plan.out, submit, so, ArrayTask{"certify", {self_executable(), "certify-task"}});
    fmt::print(stderr, "[certify] submitted job {}: {} tasks (array {}); task output in {}/slurm\n", job,
               submit.size(), array_ranges(submit), plan.out);
  }
  if (!so.wait) {
    fmt::print(stderr, "[certify] `eipc certify --status {}` shows progress; when the tasks have ended, run the same "
                       "command again (or add --wait) to collect the table\n", plan.out);
    return 0;
  }
  if (const int stopped = wait_for_tasks(plan.out, "certify")) return stopped;
  return std::nullopt;
}

}  // namespace

int certify_dataset(const DatasetOptions& o) {
  prepare_output_directory(o.out, "--out");
  Plan plan;
  // Absolute paths: the tasks may run elsewhere (another directory, a cluster node).
  plan.root = fs::absolute(o.root).lexically_normal().string();
  plan.out = fs::absolute(o.out).lexically_normal().string();
  plan.arguments = o.certify_arguments;
  plan.sequences = find_sequences(o);
  for (fs::path& s : plan.sequences) s = fs::absolute(s).lexically_normal();
  const json arguments = plan.arguments;
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < plan.sequences.size(); ++i)
    if (!is_finished(SequenceFiles(plan.sequences[i], plan.out), arguments)) todo.push_back(i);
  fmt::print(stderr, "[certify] {} sequences in {}: {} to certify, {} finished earlier\n", plan.sequences.size(),
             o.root, todo.size(), plan.sequences.size() - todo.size());
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t jobs = o.jobs > 0 ? std::size_t(o.jobs) : cores;
  // Here each task gets its share of the cores; a Slurm task has the one CPU it asks for.
  // (Results do not depend on the thread count.)
  plan.threads = o.slurm ? 1 : int(std::max<std::size_t>(1, cores / std::max<std::size_t>(1, std::min(jobs, todo.size()))));
  write_plan(plan);
  catch_stop_signals();
  if (o.slurm) {
    if (const std::optional<int> code = run_on_slurm(plan, todo, *o.slurm)) return *code;
  } else if (const int stopped = run_here(plan, todo, jobs)) {
    return stopped;
  }
  const int code = write_table(plan, plan.sequences);
  fmt::print(stderr, "[certify] table {}/dataset.csv and dataset.md; exit {}\n", plan.out, code);
  return code;
}

int certify_task(const std::string& dir, std::size_t index) {
  catch_stop_signals();
  const Plan plan = read_plan(dir);
  if (index >= plan.sequences.size())
    throw InputError(fmt::format("{}: no sequence {} (the plan has {})", plan_path(dir), index, plan.sequences.size()));
  const SequenceFiles f(plan.sequences[index], plan.out);
  // Nothing of an earlier certification stays to be read as this one's (e.g. a pairs.csv
  // of an earlier --continuous run): the record first, so the sequence counts as not done.
  for (const std::string& old : {f.record, f.certificate, f.pairs}) fs::remove(old);
  // The child writes beside the final names, renamed once it has finished: an
  // interrupted or crashed certification leaves no partial certificate.
  const std::string certificate = f.certificate + ".part", pairs = f.pairs + ".part";
  std::vector<std::string> argv = {self_executable(), "certify", plan.sequences[index].string(), "--json",
                                   "--threads", std::to_string(plan.threads)};
  argv.insert(argv.end(), plan.arguments.begin(), plan.arguments.end());
  // With --continuous, every colliding pair of the sequence's motions (eipc certify --pairs-out).
  if (std::find(plan.arguments.begin(), plan.arguments.end(), "--continuous") != plan.arguments.end())
    argv.insert(argv.end(), {"--pairs-out", pairs});
  const auto start = std::chrono::steady_clock::now();
  const int code = wait_passing_on_stop(spawn_child(argv, certificate, f.log));
  const bool finished = !stop_signal() && code >= 0 && code <= 2;  // a report or a bad-input message
  for (const auto& [part, final_name] : {std::pair{certificate, f.certificate}, std::pair{pairs, f.pairs}}) {
    if (finished && fs::exists(part)) fs::rename(part, final_name);
    else fs::remove(part);
  }
  if (stop_signal()) return 128 + stop_signal();  // no record: certified again next time
  // The record is written last: a sequence without one is certified again.
  write_file_atomically(f.record, json{{"format", "eipc-certify-dataset-run"},
                                       {"sequence", plan.sequences[index].string()},
                                       {"arguments", plan.arguments},
                                       {"exit_code", code},
                                       {"seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                                                                 start).count()}}
                                      .dump(2));
  return code;
}

int print_dataset_status(const std::string& dir) {
  const Plan plan = read_plan(dir);
  std::map<std::size_t, QueuedTask> queued;
  if (fs::exists(fs::path(plan.out) / "slurm" / "jobs.txt")) queued = queued_tasks(plan.out);
  const json arguments = plan.arguments;
  std::map<std::string, int> counts;
  for (std::size_t i = 0; i < plan.sequences.size(); ++i) {
    const SequenceFiles f(plan.sequences[i], plan.out);
    std::string state = "missing", detail;
    const auto q = queued.find(i);
    if (is_finished(f, arguments)) {
      const std::vector<std::string> row = table_row(f);
      state = "done";
      detail = cell_of(row, "status") + " (exit " + cell_of(row, "exit_code") + ")";
    } else if (q != queued.end()) {
      state = q->second.state == "RUNNING" ? "running" : "queued";
      detail = "job " + q->second.job_id + "_" + q->second.task_id;
    }
    ++counts[state];
    fmt::print("{:<8} {:<40} {}\n", state, f.name, detail);
  }
  std::string summary;
  for (const auto& [state, n] : counts) summary += fmt::format("{}{} {}", summary.empty() ? "" : ", ", n, state);
  fmt::print("{} sequences: {}\n", plan.sequences.size(), summary);
  return 0;
}

}  // namespace eipc::cli
