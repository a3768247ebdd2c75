#include "certify_dataset.hpp"

#include "child_process.hpp"
#include "stop_signal.hpp"
#include "sweep_records.hpp"

#include "eipc/certify/obj_frames.hpp"
#include "eipc/common.hpp"
#include "eipc/io/output_path.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <sys/wait.h>
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
  static const char* const kExtensions[] = {".h5", ".pvd", ".obj", ".ply", ".stl", ".vtk", ".vtu", ".vtp"};
  const std::string ext = e.path().extension().string();
  return e.is_regular_file() && std::find(std::begin(kExtensions), std::end(kExtensions), ext) != std::end(kExtensions);
}

std::vector<fs::path> sequences_of(const DatasetOptions& o) {
  std::error_code ec;
  if (!fs::is_directory(o.root, ec)) throw InputError(o.root + ": not a directory (a dataset holds one sequence per entry)");
  const fs::path out = fs::weakly_canonical(o.out);
  std::vector<fs::path> found;
  for (const auto& e : fs::directory_iterator(o.root))
    if (is_sequence(e) && fs::weakly_canonical(e.path()) != out) found.push_back(e.path());
  std::sort(found.begin(), found.end(), [](const fs::path& a, const fs::path& b) {
    return certify::natural_less(a.filename().string(), b.filename().string());
  });
  if (found.empty())
    throw InputError(o.root + ": no sequence found (sub-directories, or .h5, .pvd, .obj, .ply, .stl, .vtk, .vtu, .vtp files)");
  return found;
}

/// The files of one sequence's certification in OUT.
struct SequenceFiles {
  std::string name, certificate, log, record;
  explicit SequenceFiles(const fs::path& sequence, const std::string& out)
      : name(sequence.filename().string()),
        certificate((fs::path(out) / (name + ".certify.json")).string()),
        log((fs::path(out) / (name + ".certify.log")).string()),
        record((fs::path(out) / (name + ".record.json")).string()) {}
};

/// Finished: a record of a certification that ended (0, 1 or 2) with the same arguments.
bool is_finished(const SequenceFiles& f, const json& arguments) {
  const json record = read_json_file(f.record);
  if (!record.is_object() || record.value("format", "") != "eipc-certify-dataset-run") return false;
  const int code = record.value("exit_code", -1);
  return code >= 0 && code <= 2 && record.value("arguments", json()) == arguments;
}

/// One row of the table from a sequence's record and certificate.
std::vector<std::string> table_row(const SequenceFiles& f) {
  const json record = read_json_file(f.record);
  const json cert = read_json_file(f.certificate);
  const int code = record.is_object() ? record.value("exit_code", -1) : -1;
  const json summary = cert.is_object() ? cert.value("summary", json::object()) : json::object();
  const auto number = [&](const char* key) -> std::string {
    if (!summary.contains(key) || summary[key].is_null()) return "";
    return summary[key].is_number_integer() ? std::to_string(summary[key].get<long long>())
                                            : fmt::format("{}", summary[key].get<double>());
  };
  std::string status = code == 0 ? "clear" : code == 1 ? "not clear" : code == 2 ? "bad input" : "failed";
  if (code == 1 && summary.value("failed_frames", 0) > 0) status = "intersecting";
  else if (code == 1 && summary.value("motions_collision", 0) > 0) status = "motion collides";
  else if (code == 1 && summary.value("motions_inconclusive", 0) > 0) status = "motion undecided";
  const std::size_t pairs = summary.contains("pairs") && summary["pairs"].is_array() ? summary["pairs"].size() : 0;
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
          code == 0 || code == 1 ? std::to_string(pairs) : "",
          number("max_depth"),
          number("first_intersection_frame"),
          number("first_intersection_time"),
          number("motions_collision"),
          number("motions_inconclusive"),
          record.is_object() ? fmt::format("{:.3f}", record.value("seconds", 0.0)) : "",
          problem};
}

const std::vector<std::string> kColumns = {
    "sequence",    "status",           "exit_code",   "frames",   "failed_frames", "intersecting_pairs",
    "max_depth",   "first_failure_frame", "first_failure_time", "motions_collision", "motions_inconclusive",
    "seconds",     "problem"};

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

/// OUT/dataset.csv and OUT/dataset.md from every sequence's files. Returns the exit code.
int write_table(const DatasetOptions& o, const std::vector<fs::path>& sequences) {
  std::string csv, md;
  for (const std::string& c : kColumns) csv += (csv.empty() ? "" : ",") + c;
  csv += "\n";
  std::map<std::string, int> counts;
  std::string rows;
  int code = 0;
  for (const fs::path& s : sequences) {
    const std::vector<std::string> row = table_row(SequenceFiles(s, o.out));
    std::string line;
    for (const std::string& cell : row) line += (line.empty() ? "" : ",") + csv_cell(cell);
    csv += line + "\n";
    ++counts[row[1]];
    std::string md_row = "|";
    for (std::string cell : row) {
      for (std::size_t p = cell.find('|'); p != std::string::npos; p = cell.find('|', p + 2)) cell.replace(p, 1, "\\|");
      md_row += " " + cell + " |";
    }
    rows += md_row + "\n";
    const int c = std::stoi(row[2]);
    if (c == 2 || c < 0) code = 2;
    else if (c == 1 && code == 0) code = 1;
  }
  md = "# Certification of " + o.root + "\n\n" + std::to_string(sequences.size()) + " sequences:";
  for (const auto& [status, n] : counts) md += fmt::format(" {} {},", n, status);
  md.back() = '.';
  md += "\n\nMade by `eipc certify " + o.root + " --dataset --out " + o.out;
  for (const std::string& a : o.certify_arguments) md += " " + a;
  md += "`; certificates and logs beside this file (docs/certify.md, \"Whole datasets\").\n\n|";
  for (const std::string& c : kColumns) md += " " + c + " |";
  md += "\n|";
  for (std::size_t i = 0; i < kColumns.size(); ++i) md += "---|";
  md += "\n" + rows;
  write_file_atomically((fs::path(o.out) / "dataset.csv").string(), csv);
  write_file_atomically((fs::path(o.out) / "dataset.md").string(), md);
  return code;
}

}  // namespace

int certify_dataset(const DatasetOptions& o) {
  prepare_output_directory(o.out, "--out");
  const std::vector<fs::path> sequences = sequences_of(o);
  const json arguments = o.certify_arguments;
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < sequences.size(); ++i)
    if (!is_finished(SequenceFiles(sequences[i], o.out), arguments)) todo.push_back(i);
  fmt::print(stderr, "[certify] {} sequences in {}: {} to certify, {} finished earlier\n", sequences.size(), o.root,
             todo.size(), sequences.size() - todo.size());

  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t jobs = o.jobs > 0 ? std::size_t(o.jobs) : cores;
  // Each child gets its share of the cores (results do not depend on the thread count).
  const std::size_t at_once = std::max<std::size_t>(1, std::min(jobs, todo.size()));
  const std::string threads = std::to_string(std::max<std::size_t>(1, cores / at_once));
  const std::string exe = self_executable();
  const bool bar = isatty(STDERR_FILENO);
  struct Running {
    std::size_t index;
    std::chrono::steady_clock::time_point start;
  };
  std::map<pid_t, Running> running;
  std::size_t next = 0, done = 0, not_clear = 0;
  catch_stop_signals();
  while (next < todo.size() || !running.empty()) {
    if (stop_signal()) {
      for (const auto& [pid, r] : running) ::kill(pid, SIGTERM);
      for (const auto& [pid, r] : running) {
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
      }
      fmt::print(stderr, "\n[certify] interrupted; finished sequences are kept: run the same command to resume\n");
      return 128 + stop_signal();
    }
    while (running.size() < jobs && next < todo.size()) {
      const std::size_t i = todo[next++];
      const SequenceFiles f(sequences[i], o.out);
      std::vector<std::string> argv = {exe, "certify", sequences[i].string(), "--json", "--threads", threads};
      argv.insert(argv.end(), o.certify_arguments.begin(), o.certify_arguments.end());
      running.emplace(spawn_child(argv, f.certificate, f.log), Running{i, std::chrono::steady_clock::now()});
    }
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid == 0 || (pid < 0 && errno == EINTR)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      continue;
    }
    const auto it = running.find(pid);
    if (pid < 0 || it == running.end()) throw std::runtime_error("certify: lost track of a child process");
    const Running r = it->second;
    running.erase(it);
    const int code = exit_code_of(status);
    if (code > 2 && stop_signal()) continue;  // stopped by the interrupt: no record, certified again next time
    const SequenceFiles f(sequences[r.index], o.out);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - r.start).count();
    // The record is written last: a sequence without one is certified again.
    write_file_atomically(f.record, json{{"format", "eipc-certify-dataset-run"},
                                         {"sequence", sequences[r.index].string()},
                                         {"arguments", arguments},
                                         {"exit_code", code},
                                         {"seconds", seconds}}
                                        .dump(2));
    ++done;
    if (code != 0) ++not_clear;
    const std::string verdict = code == 0 ? "clear" : code == 1 ? "NOT CLEAR" : code == 2 ? "bad input" : "failed";
    if (bar) {
      const int width = 30, filled = int(width * done / todo.size());
      fmt::print(stderr, "\r[{}{}] {}/{} sequences, {} not clear; last: {} {}        ", std::string(filled, '#'),
                 std::string(width - filled, '.'), done, todo.size(), not_clear, f.name, verdict);
    } else {
      fmt::print(stderr, "[certify] {}/{} {}: {} ({:.2f} s)\n", done, todo.size(), f.name, verdict, seconds);
    }
  }
  if (bar && !todo.empty()) fmt::print(stderr, "\n");
  const int code = write_table(o, sequences);
  fmt::print(stderr, "[certify] table {}/dataset.csv and dataset.md; exit {}\n", o.out, code);
  return code;
}

}  // namespace eipc::cli
