// `eipc run` end to end: bad inputs exit with code 2 and a message naming the
// file and field; solver failures exit with 3 and keep an incomplete trajectory.
#include "cli_test_helpers.hpp"
#include "eipc/io/trajectory_file.hpp"

#include <catch2/catch.hpp>
#include <sstream>

using namespace eipc;
using namespace eipc::test;

namespace {

void check_bad(const Result& r, const std::string& expected) {
  INFO(r.output);
  CHECK(r.code == 2);
  CHECK_THAT(r.output, Catch::Contains(expected));
  CHECK_THAT(r.output, !Catch::Contains("internal error"));
}

}  // namespace

TEST_CASE("eipc run writes a complete trajectory and a summary", "[cli]") {
  Workspace w;
  const std::string out = (w.dir / "out.h5").string();
  const Result r = run_eipc("run " + w.scene() + " --out " + out + " --json");
  INFO(r.output);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.output, Catch::Contains("\"real_time_factor\""));
  const Trajectory t = read_trajectory(out);
  CHECK(t.status == TrajectoryStatus::complete);
  CHECK(t.frames.size() == 3);
  CHECK(t.frames.back().time == Approx(0.02));
}

TEST_CASE("eipc run rejects bad scenes with exit code 2 naming file and field", "[cli]") {
  Workspace w;
  check_bad(run_eipc("run " + (w.dir / "missing.json").string()), "missing.json");
  check_bad(run_eipc("run " + w.write("broken.json", "{ not json")), "not valid JSON");
  check_bad(run_eipc("run " + w.scene(", \"velocity\": [1, 2]")), "bodies[0].velocity");
  check_bad(run_eipc("run " + w.scene() + " --set bodies.0.material.youngs=-5"), "youngs");
  check_bad(run_eipc("run " + w.scene() + " --set bodies.0.material.model=rubber"), "rubber");
  check_bad(run_eipc("run " + w.scene() + " --set bodies.0.mesh=nothing.msh"), "nothing.msh");
  check_bad(run_eipc("run " + w.scene() + " --set dt=0.03"), "dt");
  check_bad(run_eipc("run " + w.scene() + " --set duration=0.025"), "whole number of steps");
  check_bad(run_eipc("run " + w.scene() + " --set bodies.0.embedding=coarse"), "unknown embedding 'coarse'");
  check_bad(run_eipc("run " + w.scene("", "", "[0.05, 0.05, 0.03]")), "not intersection free");
  check_bad(run_eipc("run " + w.scene() + " --set bodies.0.transform.translation=[0,0,-0.01]"), "below the ground");
  // A motion that does not start where the transform puts the body (held before its first keyframe).
  for (const char* start : {R"({"t": 0, "translation": [0, 0, 0.04]})", R"({"t": 0.5, "rotation_deg": [0, 10, 0]})"})
    check_bad(run_eipc("run " + w.scene(R"(, "prescribed": [{"vertices": "all", "motion": [)" + std::string(start) + "]}]")),
              "field 'bodies[0].prescribed[0].motion': at t = 0 the motion must leave the body where its transform");
  const Result at_rest = run_eipc(
      "run " + w.scene(R"(, "prescribed": [{"vertices": "all", "motion": [{"t": -0.1, "translation": [0, 0, -0.01]},)"
                       R"( {"t": 0.1, "translation": [0, 0, 0.01]}]}])") +
      " --out " + (w.dir / "rest.h5").string());
  INFO(at_rest.output);
  CHECK(at_rest.code == 0);
}

TEST_CASE("eipc run rejects bad meshes with exit code 2", "[cli]") {
  Workspace w;
  // An inverted tet, a NaN coordinate and an index out of range, as Gmsh 2.2 files.
  const std::string head = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n";
  const std::string nodes = "1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n$EndNodes\n$Elements\n1\n";
  w.write("inverted.msh", head + nodes + "1 4 0 1 3 2 4\n$EndElements\n");
  w.write("nan.msh", head + "1 0 0 nan\n2 1 0 0\n3 0 1 0\n4 0 0 1\n$EndNodes\n$Elements\n1\n1 4 0 1 2 3 4\n$EndElements\n");
  w.write("range.msh", head + nodes + "1 4 0 1 2 3 9\n$EndElements\n");
  const std::string scene = w.scene();
  check_bad(run_eipc("run " + scene + " --set bodies.0.mesh=inverted.msh"), "inverted");
  check_bad(run_eipc("run " + scene + " --set bodies.0.mesh=nan.msh"), "nan.msh");
  check_bad(run_eipc("run " + scene + " --set bodies.0.mesh=range.msh"), "range.msh");
  // A soft body's OBJ surface is tetrahedralized (own_mesh_test.cpp), so it must enclose a volume.
  w.write("sheet.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
  check_bad(run_eipc("run " + scene + " --set bodies.0.mesh=sheet.obj"), "the surface is open");
}

TEST_CASE("a solver failure exits with 3 and keeps the trajectory so far, marked incomplete", "[cli]") {
  Workspace w;
  const std::string out = (w.dir / "fail.h5").string();
  // One Newton iteration cannot converge the step in which a cube hits the ground at 1 m/s.
  const Result r = run_eipc("run " + w.scene(R"(, "velocity": [0, 0, -1])") + " --out " + out +
                            " --set solver.max_newton_iters=1");
  INFO(r.output);
  CHECK(r.code == 3);
  CHECK_THAT(r.output, Catch::Contains("Newton did not converge"));
  const Trajectory t = read_trajectory(out);
  CHECK(t.status == TrajectoryStatus::incomplete);
  CHECK_THAT(t.status_reason, Catch::Contains("Newton"));
  CHECK(t.frames.size() >= 1);
}

TEST_CASE("eipc ccd answers published queries", "[cli]") {
  Workspace w;
  const std::string q = w.write("q.csv", "vf,0,0,1, -1,-1,0, 1,-1,0, 0,1,0, 0,0,-1, -1,-1,0, 1,-1,0, 0,1,0\n"
                                          "ee,0,0,1, 1,0,1, 0,1,2, 1,1,2, 0,0,1, 1,0,1, 0,1,2, 1,1,2\n");
  const Result r = run_eipc("ccd " + q);
  INFO(r.output);
  REQUIRE(r.code == 0);
  std::istringstream lines(r.output);
  std::string first, second;
  std::getline(lines, first);
  std::getline(lines, second);
  CHECK(first.rfind("1 ", 0) == 0);
  CHECK(second == "0");
}
