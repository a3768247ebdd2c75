// `eipc forces`: contact forces over time as CSV, checked against the per-pair forces read
// from the trajectory and, for a cube resting on a cube on the ground, against m g.
#include "cli_test_helpers.hpp"
#include "eipc/io/trajectory_file.hpp"

#include <catch2/catch.hpp>
#include <sstream>

using namespace eipc;
using namespace eipc::test;
using Catch::Matchers::Contains;

namespace {

constexpr double kG = 9.81;

// Cube a (1000 kg/m^3, 1 kg) 2 mm above the ground, cube b (500 kg/m^3, 0.5 kg) 2 mm above a:
// both settle within the 1 s, b resting on a, a on the ground.
std::string stack_scene(const Workspace& w) {
  return w.write("stack.json", R"({"format": "eipc-scene", "version": 1, "name": "stack", "duration": 1.0,
    "dt": 0.01, "gravity": [0, 0, -9.81], "ground": {"height": 0.0}, "contact": {"friction": 0.3},
    "bodies": [
      {"name": "a", "mesh": "cube.msh", "transform": {"translation": [0, 0, 0.002]},
       "material": {"model": "neo_hookean", "youngs": 1e5, "poisson": 0.3, "density": 1000}},
      {"name": "b", "mesh": "cube.msh", "transform": {"translation": [0, 0, 0.104]},
       "material": {"model": "neo_hookean", "youngs": 1e5, "poisson": 0.3, "density": 500}}]})");
}

using Row = std::vector<std::string>;

std::vector<Row> read_csv(const fs::path& path) {
  std::ifstream in(path);
  std::vector<Row> rows;
  for (std::string line; std::getline(in, line);) {
    Row r;
    std::stringstream s(line);
    for (std::string field; std::getline(s, field, ',');) r.push_back(field);
    rows.push_back(r);
  }
  return rows;
}

const Row kHeader = {"frame", "step", "time", "body", "from", "fx", "fy", "fz", "norm", "normal_x", "normal_y",
                     "normal_z", "friction_x", "friction_y", "friction_z", "contacts"};

// The stored pair (a, b) of frame f, or zeros: read straight from the trajectory.
BodyPairForce stored(const Frame& f, int a, int b) {
  for (const BodyPairForce& p : f.pair_forces)
    if (p.body_a == a && p.body_b == b) return p;
  return {a, b};
}

// Columns fx .. contacts of a row against the expected normal and friction force.
void check_row(const Row& r, const Vec3& normal, const Vec3& friction, int contacts) {
  REQUIRE(r.size() == kHeader.size());
  const Vec3 total = normal + friction;
  for (int k = 0; k < 3; ++k) {
    CHECK(std::stod(r[5 + k]) == Approx(total[k]).margin(1e-12));
    CHECK(std::stod(r[9 + k]) == Approx(normal[k]).margin(1e-12));
    CHECK(std::stod(r[12 + k]) == Approx(friction[k]).margin(1e-12));
  }
  CHECK(std::stod(r[8]) == Approx(total.norm()).margin(1e-12));
  CHECK(std::stoi(r[15]) == contacts);
}

}  // namespace

TEST_CASE("eipc forces prints the force on a body, of a pair and of every pair over time", "[cli]") {
  Workspace w;
  const std::string run = (w.dir / "run.h5").string();
  REQUIRE(run_eipc("run " + stack_scene(w) + " --out " + run).code == 0);
  const Trajectory t = read_trajectory(run);
  const int a = 0, b = 1, ground = -1;
  REQUIRE(t.header.bodies[b].name == "b");
  const std::size_t frames = t.frames.size();

  SECTION("--body: the sum over every stored pair, with the sign of the side the body is on") {
    for (const char* body : {"a", "b"}) {
      const fs::path csv = w.dir / (std::string(body) + ".csv");
      const Result r = run_eipc("forces " + run + " --body " + body + " --out " + csv.string());
      INFO(r.output);
      REQUIRE(r.code == 0);
      const std::vector<Row> rows = read_csv(csv);
      REQUIRE(rows.size() == frames + 1);
      CHECK(rows[0] == kHeader);
      for (std::size_t i = 0; i < frames; ++i) {
        const Frame& f = t.frames[i];
        const Row& row = rows[i + 1];
        CHECK(row[0] == std::to_string(i));
        CHECK(std::stol(row[1]) == f.step);
        CHECK(std::stod(row[2]) == f.time);
        CHECK(row[3] == body);
        CHECK(row[4] == "all");
        const BodyPairForce ab = stored(f, a, b), ag = stored(f, a, ground);
        if (std::string(body) == "a")  // a feels the ground and b, both stored as forces on a
          check_row(row, ag.normal + ab.normal, ag.friction + ab.friction, ag.pairs + ab.pairs);
        else  // b feels the opposite of the stored force on a from b
          check_row(row, -ab.normal, -ab.friction, ab.pairs);
      }
      // At rest (the last tenth of a second) the contact forces carry each cube's weight.
      const double weight = (std::string(body) == "a" ? 1.0 : 0.5) * kG;
      for (std::size_t i = frames - 10; i < frames; ++i) {
        INFO(body << " at t = " << rows[i + 1][2]);
        CHECK(std::stod(rows[i + 1][7]) == Approx(weight).epsilon(0.01));
        CHECK(std::abs(std::stod(rows[i + 1][5])) < 0.01 * weight);
        CHECK(std::abs(std::stod(rows[i + 1][6])) < 0.01 * weight);
      }
    }
  }
  SECTION("--pair: the force on the first body from the second, either way round, and the ground") {
    const fs::path ba = w.dir / "ba.csv", ag = w.dir / "ag.csv";
    REQUIRE(run_eipc("forces " + run + " --pair b,a --out " + ba.string()).code == 0);
    REQUIRE(run_eipc("forces " + run + " --pair a,ground --out " + ag.string()).code == 0);
    const std::vector<Row> rows_ba = read_csv(ba), rows_ag = read_csv(ag);
    REQUIRE(rows_ba.size() == frames + 1);
    REQUIRE(rows_ag.size() == frames + 1);
    for (std::size_t i = 0; i < frames; ++i) {
      const BodyPairForce ab = stored(t.frames[i], a, b), gr = stored(t.frames[i], a, ground);
      CHECK(rows_ba[i + 1][3] == "b");
      CHECK(rows_ba[i + 1][4] == "a");
      check_row(rows_ba[i + 1], -ab.normal, -ab.friction, ab.pairs);
      check_row(rows_ag[i + 1], gr.normal, gr.friction, gr.pairs);
    }
    // The ground carries both cubes.
    CHECK(std::stod(rows_ag.back()[7]) == Approx(1.5 * kG).epsilon(0.01));
  }
  SECTION("no selection: one row per frame and stored pair (long CSV), zeros before they touch; stdout") {
    const Result r = run_eipc("forces " + run);
    REQUIRE(r.code == 0);
    std::vector<Row> rows;
    std::stringstream s(r.output);
    for (std::string line; std::getline(s, line);) {
      Row row;
      std::stringstream l(line);
      for (std::string field; std::getline(l, field, ',');) row.push_back(field);
      rows.push_back(row);
    }
    REQUIRE(rows.size() == 2 * frames + 1);
    CHECK(rows[0] == kHeader);
    for (std::size_t i = 0; i < frames; ++i) {
      const Row &first = rows[2 * i + 1], &second = rows[2 * i + 2];
      CHECK((first[3] == "a" && first[4] == "ground" && second[3] == "a" && second[4] == "b"));
      const BodyPairForce gr = stored(t.frames[i], a, ground), ab = stored(t.frames[i], a, b);
      check_row(first, gr.normal, gr.friction, gr.pairs);
      check_row(second, ab.normal, ab.friction, ab.pairs);
    }
    CHECK(std::stoi(rows[2][15]) == 0);  // frame 0: nothing touches yet
  }
}

TEST_CASE("eipc forces: bad input exits 2 naming the file and the problem", "[cli]") {
  Workspace w;
  const std::string run = (w.dir / "run.h5").string();
  REQUIRE(run_eipc("run " + w.scene() + " --out " + run).code == 0);
  auto bad = [](const Result& r, const std::string& expected) {
    INFO(r.output);
    CHECK(r.code == 2);
    CHECK_THAT(r.output, Contains(expected));
    CHECK_THAT(r.output, !Contains("internal error"));
  };
  bad(run_eipc("forces " + run + " --body bb"), "run.h5: --body: no body 'bb' (did you mean 'b'?); bodies: a, b");
  bad(run_eipc("forces " + run + " --pair a,grund"), "run.h5: --pair: no body 'grund' (did you mean 'ground'?)");
  bad(run_eipc("forces " + run + " --pair a"), "run.h5: --pair 'a': give two names A,B");
  bad(run_eipc("forces " + run + " --pair a,a"), "run.h5: --pair 'a,a': names one body twice");
  bad(run_eipc("forces " + run + " --body a --pair a,b"), "--body excludes --pair");
  bad(run_eipc("forces " + (w.dir / "none.h5").string()), "none.h5: no such trajectory file");
  bad(run_eipc("forces " + w.write("x.h5", "not hdf5")), "x.h5: not a readable HDF5 file");
}
