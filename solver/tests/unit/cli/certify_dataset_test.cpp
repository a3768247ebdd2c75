// `eipc certify ROOT --dataset`: one process per sequence, a table, resuming
// (docs/certify.md, "Whole datasets").
#include "cli_test_helpers.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <sstream>
#include <thread>

using namespace eipc;
using namespace eipc::test;
using Catch::Matchers::Contains;

namespace {

/// An OBJ frame of two tetrahedra; the second one `overlap` into the first (0: 2 apart).
std::string two_tets(double overlap) {
  std::ostringstream s;
  const double x = 3.0 - 2.8 * overlap;
  s << "o a\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
  s << "o b\nv " << x << " 0.2 0.2\nv " << x + 1 << " 0.2 0.2\nv " << x << " 1.2 0.2\nv " << x << " 0.2 1.2\n";
  s << "f 5 7 6\nf 5 6 8\nf 5 8 7\nf 6 7 8\n";
  return s.str();
}

std::vector<std::string> lines_of(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("eipc certify --dataset certifies each sequence once, tabulates them and resumes", "[cli][certify]") {
  Workspace w;
  const fs::path root = w.dir / "dataset", out = w.dir / "certificates";
  for (const char* seq : {"clear", "crossing"}) fs::create_directories(root / seq);
  for (int frame = 0; frame < 3; ++frame) {
    std::ofstream(root / "clear" / ("f" + std::to_string(frame) + ".obj")) << two_tets(0);
    std::ofstream(root / "crossing" / ("f" + std::to_string(frame) + ".obj")) << two_tets(frame >= 1 ? 1 : 0);
  }
  std::ofstream(root / "broken.h5") << "not an HDF5 file";
  std::ofstream(root / "notes.txt") << "not a sequence";
  const std::string command = "certify " + root.string() + " --dataset --jobs 2 --out " + out.string();

  const Result first = run_eipc(command);
  INFO(first.output);
  CHECK(first.code == 2);  // a sequence was bad input
  CHECK_THAT(first.output, Contains("3 sequences") && Contains("3 to certify"));
  const std::vector<std::string> table = lines_of(out / "dataset.csv");
  REQUIRE(table.size() == 4);
  CHECK(table[0] ==
        "sequence,status,exit_code,frames,failed_frames,intersecting_body_pairs,max_intersecting_triangle_pairs,"
        "max_depth,first_failure_frame,first_failure_time,motions_collision,motions_inconclusive,"
        "motion_colliding_pairs,seconds,problem");
  CHECK_THAT(table[1], Contains("broken.h5,bad input,2,") && Contains("not a readable HDF5 file"));
  // Motions were not checked (no --continuous): not "0 collisions".
  CHECK_THAT(table[2], Catch::StartsWith("clear,clear,0,3,0,0,0,,,,not checked,not checked,not checked,"));
  // One body pair, a / b; its triangle pairs are the most any frame of the certificate has.
  const nlohmann::json crossing = nlohmann::json::parse(std::ifstream(out / "crossing.certify.json"));
  long long most = 0;
  for (const auto& frame : crossing["frames"])
    most = std::max(most, frame["counts"]["triangle_pairs"].get<long long>());
  CHECK(most > 1);
  CHECK_THAT(table[3], Catch::StartsWith("crossing,intersecting,1,3,2,1," + std::to_string(most) + ","));
  CHECK_THAT(table[3], Contains(",1,,not checked,"));  // first failure: frame 1 (OBJ frames have no times)
  CHECK_THAT(lines_of(out / "dataset.md")[2], Contains("3 sequences: 1 bad input, 1 clear, 1 intersecting."));

  // Nothing is certified again; a sequence without its record is.
  const Result again = run_eipc(command);
  CHECK(again.code == 2);
  CHECK_THAT(again.output, Contains("0 to certify, 3 finished earlier"));
  fs::remove(out / "clear.record.json");
  const Result resumed = run_eipc(command);
  CHECK_THAT(resumed.output, Contains("1 to certify, 2 finished earlier") && Contains("clear: clear"));
  CHECK(lines_of(out / "dataset.csv") .size() == 4);
  // Other certify options are another certification: all again.
  const Result continuous = run_eipc(command + " --continuous");
  CHECK_THAT(continuous.output, Contains("3 to certify"));
  // Each sequence's colliding motion pairs, as eipc certify --pairs-out writes them: none where
  // the frames repeat; in "crossing", b's corner (file vertex 4) meets a's face x + y + z = 1
  // when x = 3 - 2.8 t = 0.6, t = 6/7, in the motion from frame 0 to 1.
  CHECK(lines_of(out / "clear.pairs.csv") == std::vector<std::string>{lines_of(out / "clear.pairs.csv").at(0)});
  const std::vector<std::string> pairs = lines_of(out / "crossing.pairs.csv");
  REQUIRE(pairs.size() == 2);
  CHECK_THAT(pairs[0], Catch::StartsWith("from,to,kind,"));
  CHECK_THAT(pairs[1], Catch::StartsWith("0,1,point_triangle,b,4,,a,3,"));
  std::stringstream row(pairs[1]);
  std::vector<std::string> cells;
  for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
  REQUIRE(cells.size() == 13);
  CHECK(std::stod(cells[11]) <= 6.0 / 7.0);
  CHECK(std::stod(cells[12]) >= 6.0 / 7.0);
  CHECK_THAT(lines_of(out / "dataset.csv")[2], Catch::StartsWith("clear,clear,0,3,0,0,0,,,,0,0,0,"));
  // crossing: one motion collides, by one primitive pair (the row of its pairs.csv).
  CHECK_THAT(lines_of(out / "dataset.csv")[3], Contains(",1,,1,0,1,"));

  // Certified again without --continuous: its motions are not checked, and no pairs.csv of
  // the earlier run stays beside the new certificate.
  const Result frames_only = run_eipc(command);
  CHECK_THAT(frames_only.output, Contains("3 to certify"));
  CHECK_FALSE(fs::exists(out / "crossing.pairs.csv"));
  CHECK_FALSE(fs::exists(out / "clear.pairs.csv"));
  CHECK_THAT(lines_of(out / "dataset.csv")[3], Contains(",1,,not checked,not checked,not checked,"));
}

TEST_CASE("eipc certify --dataset interrupted leaves no partial certificate", "[cli][certify]") {
  // One sequence of some seconds: two sheets of 2 x 40^2 triangles, the second passing
  // through the first and back in each of 5 motions (frames hard-linked to two files),
  // about 3 s of exact arithmetic per motion.
  Workspace w;
  const fs::path root = w.dir / "dataset", seq = root / "sheets", out = w.dir / "certificates";
  fs::create_directories(seq);
  auto sheets = [](double z) {
    const int n = 40;
    std::ostringstream s;
    for (const double height : {0.0, z}) {
      s << "o sheet" << (height == 0.0 ? "0" : "1") << "\n";
      for (int i = 0; i <= n; ++i)
        for (int j = 0; j <= n; ++j) s << "v " << i + 0.3 << " " << j + 0.3 * (height != 0.0) << " " << height << "\n";
    }
    for (int sheet = 0; sheet < 2; ++sheet)
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          const int v = 1 + sheet * (n + 1) * (n + 1) + i * (n + 1) + j;
          s << "f " << v << " " << v + n + 1 << " " << v + 1 << "\n";
          s << "f " << v + 1 << " " << v + n + 1 << " " << v + n + 2 << "\n";
        }
    return s.str();
  };
  std::ofstream(seq / "f00.obj") << sheets(0.5);
  std::ofstream(seq / "f01.obj") << sheets(-0.5);
  for (int k = 2; k <= 5; ++k)
    fs::create_hard_link(seq / (k % 2 ? "f01.obj" : "f00.obj"), seq / ("f0" + std::to_string(k) + ".obj"));

  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    execl(EIPC_BINARY, EIPC_BINARY, "certify", root.c_str(), "--dataset", "--continuous", "--jobs", "1", "--out",
          out.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  // Interrupt once the sequence's certification has started (its log is opened with its output).
  for (int i = 0; i < 600 && !fs::exists(out / "sheets.certify.log"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ::kill(pid, SIGINT);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 128 + SIGINT);
  REQUIRE(fs::exists(out / "sheets.certify.log"));
  // Nothing that reads as a certificate, a pairs list or a record; no partial file left either.
  for (const auto& e : fs::directory_iterator(out)) {
    INFO(e.path().filename().string());
    CHECK(e.path().extension() != ".part");
  }
  CHECK_FALSE(fs::exists(out / "sheets.certify.json"));
  CHECK_FALSE(fs::exists(out / "sheets.pairs.csv"));
  CHECK_FALSE(fs::exists(out / "sheets.record.json"));
}

TEST_CASE("eipc certify --dataset refuses what is not a dataset run with exit 2", "[cli][certify]") {
  Workspace w;
  const Result no_out = run_eipc("certify " + w.dir.string() + " --dataset");
  CHECK(no_out.code == 2);
  CHECK_THAT(no_out.output, Contains("--dataset needs --out"));
  const Result empty = run_eipc("certify " + (w.dir / "none").string() + " --dataset --out " + (w.dir / "o").string());
  CHECK(empty.code == 2);
  CHECK_THAT(empty.output, Contains("not a directory"));
  fs::create_directories(w.dir / "empty");
  const Result nothing =
      run_eipc("certify " + (w.dir / "empty").string() + " --dataset --out " + (w.dir / "o").string());
  CHECK(nothing.code == 2);
  CHECK_THAT(nothing.output, Contains("no sequence found"));
}
