#include <catch2/catch.hpp>

#include "eipc/certify/certify.hpp"
#include "eipc/mesh/frame_sequence.hpp"
#include "eipc/mesh/read_obj.hpp"
#include "test_meshes.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace eipc;
using namespace eipc::certify;
namespace fs = std::filesystem;

namespace {
void write_obj(const fs::path& path, const std::vector<std::pair<std::string, test::Surface>>& bodies) {
  std::ofstream out(path);
  out.precision(17);
  long offset = 1;
  for (const auto& [name, s] : bodies) {
    out << "o " << name << "\n";
    for (int v = 0; v < s.x.rows(); ++v) out << "v " << s.x(v, 0) << " " << s.x(v, 1) << " " << s.x(v, 2) << "\n";
    for (int f = 0; f < s.faces.rows(); ++f)
      out << "f " << s.faces(f, 0) + offset << " " << s.faces(f, 1) + offset << " " << s.faces(f, 2) + offset << "\n";
    offset += s.x.rows();
  }
}

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name) : path(fs::temp_directory_path() / ("eipc_certify_" + name)) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};
}  // namespace

TEST_CASE("OBJ parsing: objects, groups, polygons, negative indices", "[certify][obj]") {
  TempDir dir("obj_parse");
  auto parse = [&](const std::string& text) {
    std::ofstream(dir.path / "mem.obj") << text;
    return read_obj_surfaces((dir.path / "mem.obj").string());
  };
  const auto bodies = parse(
      "# comment\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
      "o quad\nf 1/1/1 2/2/2 3//3 4\n"
      "v 5 5 5\nv 6 5 5\nv 5 6 5\ng ignored_because_o_exists\no tri\nf -3 -2 -1\n");
  REQUIRE(bodies.size() == 2);
  CHECK(bodies[0].name == "quad");
  CHECK(bodies[0].mesh.faces.rows() == 2);  // fan-triangulated quad
  CHECK(bodies[0].mesh.vertices.rows() == 4);
  CHECK(bodies[1].name == "tri");
  CHECK(bodies[1].mesh.vertices.rows() == 3);
  CHECK(bodies[1].mesh.vertices(0, 0) == 5.0);
  CHECK(bodies[1].mesh.faces(0, 2) == 2);
  // The file's indices: the triangle's vertices are the file's 5th..7th, it is the file's 3rd triangle.
  CHECK(bodies[1].file_vertex == std::vector<int>{4, 5, 6});
  CHECK(bodies[1].file_triangle == std::vector<int>{2});

  CHECK(parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\ng a\nf 1 2 3\ng b\nf 1 2 4\n").size() == 2);
  CHECK_THROWS_AS(parse("v 0 0 0\nv 1 0 0\nf 1 2 9\n"), InputError);
  CHECK_THROWS_WITH(parse("v 0 zero 0\n"), Catch::Contains("mem.obj:1"));
  CHECK_THROWS_WITH(parse("hello\n"), Catch::Contains("no faces"));
}

TEST_CASE("natural order of frame files", "[certify][obj]") {
  CHECK(natural_less("frame2.obj", "frame10.obj"));
  CHECK_FALSE(natural_less("frame10.obj", "frame2.obj"));
  CHECK(natural_less("a.obj", "b.obj"));
}

TEST_CASE("certify command on OBJ frame directories", "[certify][obj]") {
  const auto box = test::box({0, 0, 0}, {1, 1, 1});
  const auto near = test::box({1 + 1e-12, 0, 0}, {2, 1, 1});
  SECTION("one file per frame, bodies as objects: clean, then a failing frame") {
    TempDir dir("frames");
    write_obj(dir.path / "f1.obj", {{"left", box}, {"right", near}});
    write_obj(dir.path / "f2.obj", {{"left", box}, {"right", test::translated(near, {-0.5, 0, 0})}});
    write_obj(dir.path / "f10.obj", {{"left", box}, {"right", near}});
    std::ostringstream out, err;
    CertifyOptions opt;
    opt.json = true;
    CHECK(certify_command(dir.path.string(), opt, out, err) == 1);
    const auto j = nlohmann::json::parse(out.str());
    REQUIRE(j["frames"].size() == 3);
    CHECK(j["frames"][0]["ok"] == true);
    CHECK(j["frames"][1]["ok"] == false);  // f2, sorted naturally before f10
    CHECK(j["frames"][1]["first"]["kind"] == "triangle_pair");
    CHECK(j["frames"][1]["first"]["body_a"] == "left");
    CHECK(j["frames"][1]["first"]["body_b"] == "right");
    CHECK(j["frames"][2]["ok"] == true);
    CHECK(j["exit_code"] == 1);
    // Measured per body pair; OBJ frames have no times.
    REQUIRE(j["frames"][1]["pairs"].size() == 1);
    CHECK(j["frames"][1]["pairs"][0]["body_a"] == "left");
    // The boxes' y and z faces are coplanar: the corners of each that lie in the
    // other (x = 0.5 + 1e-12 and x = 1) are on its surface, depth exactly 0.
    CHECK(j["frames"][1]["pairs"][0]["b_in_a"] == 4);
    CHECK(j["frames"][1]["pairs"][0]["a_in_b"] == 4);
    CHECK(j["frames"][1]["pairs"][0]["depth"] == 0.0);
    CHECK(j["summary"]["intersecting_frames"] == 1);
    CHECK(j["summary"]["first_intersection_frame"] == 1);
    CHECK(j["summary"]["first_intersection_time"].is_null());
    opt.json = false;
    std::ostringstream text;
    CHECK(certify_command(dir.path.string(), opt, text, err) == 1);
    CHECK(text.str().find("t =") == std::string::npos);
    CHECK(text.str().find("left / right: 1 frame, first frame 1;") != std::string::npos);
  }
  SECTION("one subdirectory per body; continuous jump-through") {
    TempDir dir("bodies");
    fs::create_directories(dir.path / "box");
    fs::create_directories(dir.path / "tet");
    const auto t = test::tet({0.4, 0.4, 1.5}, {0.6, 0.4, 1.5}, {0.4, 0.6, 1.5}, {0.4, 0.4, 1.7});
    write_obj(dir.path / "box" / "000.obj", {{"x", box}});
    write_obj(dir.path / "box" / "001.obj", {{"x", box}});
    write_obj(dir.path / "tet" / "000.obj", {{"x", t}});
    write_obj(dir.path / "tet" / "001.obj", {{"x", test::translated(t, {0, 0, -3})}});
    std::ostringstream out, err;
    CertifyOptions opt;
    CHECK(certify_command(dir.path.string(), opt, out, err) == 0);  // every frame is clean
    CHECK(out.str().find("ALL CLEAR") != std::string::npos);
    opt.continuous = true;
    std::ostringstream out2;
    CHECK(certify_command(dir.path.string(), opt, out2, err) == 1);  // caught only with --continuous
    CHECK(out2.str().find("collision") != std::string::npos);
    CHECK(out2.str().find("tet") != std::string::npos);
  }
  SECTION("bad input gives exit code 2") {
    TempDir dir("bad");
    std::ostringstream out, err;
    CHECK(certify_command((dir.path / "missing").string(), {}, out, err) == 2);
    CHECK(certify_command(dir.path.string(), {}, out, err) == 2);  // empty directory
    std::ofstream(dir.path / "f.obj") << "v 0 0 0\nf 1 2 3\n";
    CHECK(certify_command(dir.path.string(), {}, out, err) == 2);
    CHECK(err.str().find("f.obj") != std::string::npos);
  }
  SECTION("a trajectory whose ground is touched") {
    Trajectory tr;
    tr.header.ground_height = 0.0;
    tr.header.bodies.push_back({"box", "full", false, box.x, box.faces, {}, std::nullopt});
    Frame f;
    f.positions.push_back(box.x);
    tr.frames.push_back(f);
    const auto r = certify_trajectory(tr);
    CHECK(r.exit_code() == 1);
    CHECK(r.frames[0].check.ground == 4);
    CertifyOptions lifted;
    lifted.ground_height = -1e-12;
    CHECK(certify_trajectory(tr, lifted).exit_code() == 0);
  }
}

TEST_CASE("nothing is cleared that was not checked: exit 2 naming the file and problem", "[certify][inputs]") {
  TempDir dir("unchecked");
  auto run = [](const fs::path& p, std::string& err_text, std::string& out_text) {
    std::ostringstream out, err;
    const int code = certify_command(p.string(), {}, out, err);
    err_text = err.str();
    out_text = out.str();
    return code;
  };
  std::string err, out;
  SECTION("a file with no triangles") {
    std::ofstream(dir.path / "junk.obj") << "hello\n";
    CHECK(run(dir.path / "junk.obj", err, out) == 2);
    CHECK(err.find("junk.obj") != std::string::npos);
    CHECK(err.find("no faces") != std::string::npos);
    CHECK(out.find("ALL CLEAR") == std::string::npos);
    std::ofstream(dir.path / "points.ply") << "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n"
                                              "property float y\nproperty float z\nend_header\n0 0 0\n";
    CHECK(run(dir.path / "points.ply", err, out) == 2);
    CHECK(err.find("points.ply: no faces") != std::string::npos);
  }
  SECTION("frames that disagree in size") {
    const auto box = test::box({0, 0, 0}, {1, 1, 1});
    write_obj(dir.path / "f0.obj", {{"a", box}});
    write_obj(dir.path / "f1.obj", {{"a", test::box({0, 0, 0}, {1, 1, 1})}, {"b", test::box({3, 0, 0}, {4, 1, 1})}});
    CHECK(run(dir.path, err, out) == 2);
    CHECK(err.find("f1.obj: 2 bodies, frame 0 has 1") != std::string::npos);
  }
  SECTION("of many frames read in parallel, the first bad one is named") {
    const auto box = test::box({0, 0, 0}, {1, 1, 1});
    for (int k = 0; k < 12; ++k) {
      const fs::path f = dir.path / ("f" + std::string(k < 10 ? "0" : "") + std::to_string(k) + ".obj");
      if (k == 3 || k == 5 || k == 10)
        std::ofstream(f) << "hello\n";
      else
        write_obj(f, {{"a", box}});
    }
    CHECK(run(dir.path, err, out) == 2);
    CHECK(err.find("f03.obj: no faces") != std::string::npos);
    CHECK(err.find("f05") == std::string::npos);
    CHECK(err.find("f10") == std::string::npos);
  }
  SECTION("a file of an unknown format or not readable") {
    std::ofstream(dir.path / "frame.xyz") << "1 2 3\n";
    CHECK(run(dir.path / "frame.xyz", err, out) == 2);
    CHECK(err.find("frame.xyz") != std::string::npos);
    CHECK(err.find(".ply") != std::string::npos);  // says what it reads
    std::ofstream(dir.path / "cut.ply") << "ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\n"
                                           "property float y\nproperty float z\nelement face 1\n"
                                           "property list uchar int vertex_indices\nend_header\n\1\2";
    CHECK(run(dir.path / "cut.ply", err, out) == 2);
    CHECK(err.find("cut.ply") != std::string::npos);
    CHECK(err.find("truncated") != std::string::npos);
  }
  SECTION("--bodies is for datasets") {
    CertifyOptions opt;
    opt.bodies = BodyRule::components;
    std::ostringstream o, e;
    CHECK(certify_command((dir.path / "run.h5").string(), opt, o, e) == 2);
    CHECK(e.str().find("--bodies applies to datasets") != std::string::npos);
  }
  SECTION("a trajectory without triangles") {
    Trajectory tr;
    tr.header.bodies.push_back({"empty", "full", false, Positions(0, 3), Tris(0, 3), {}, std::nullopt});
    tr.frames.emplace_back();
    tr.frames.back().positions.push_back(Positions(0, 3));
    CHECK_THROWS_WITH(certify_trajectory(tr, {}, "t.h5"), Catch::Contains("t.h5: no triangles"));
    tr.frames.clear();
    CHECK_THROWS_WITH(certify_trajectory(tr, {}, "t.h5"), Catch::Contains("no frames"));
  }
}

TEST_CASE("certify --pairs-out lists every colliding pair of a motion as CSV", "[certify][obj][ccd]") {
  // A tetrahedron falls through a box between two OBJ frames: both frames are clean.
  TempDir dir("pairs_out");
  const test::Surface box = test::box({0, 0, 0}, {1, 1, 1});
  const test::Surface tet = test::tet({0.4, 0.4, 1.5}, {0.6, 0.4, 1.5}, {0.4, 0.6, 1.5}, {0.4, 0.4, 1.7});
  write_obj(dir.path / "f0.obj", {{"box", box}, {"tet", tet}});
  write_obj(dir.path / "f1.obj", {{"box", box}, {"tet", test::translated(tet, {0, 0, -3})}});
  CertifyOptions options;
  options.json = true;
  options.continuous = true;
  options.pairs_out = (dir.path / "pairs.csv").string();
  std::ostringstream out, err;
  REQUIRE(certify_command(dir.path.string(), options, out, err) == 1);
  const auto report = nlohmann::json::parse(out.str());
  const auto& motion = report["motions"][0];
  CHECK(motion["status"] == "collision");
  CHECK(motion["inconclusive"] == 0);
  std::ifstream csv(options.pairs_out);
  std::string line;
  REQUIRE(std::getline(csv, line));
  CHECK(line == "from,to,kind,body_a,vertex_a0,vertex_a1,body_b,triangle_b,vertex_b0,vertex_b1,vertex_b2,t_lo,t_hi");
  std::size_t rows = 0, point_triangle = 0;
  while (std::getline(csv, line)) {
    ++rows;
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) cells.push_back(cell);
    if (line.back() == ',') cells.push_back("");
    REQUIRE(cells.size() == 13);
    CHECK(cells[0] == "0");
    CHECK(cells[1] == "1");
    const double lo = std::stod(cells[11]), hi = std::stod(cells[12]);
    CHECK(0.0 <= lo);
    CHECK(lo <= hi);
    CHECK(hi <= 1.0);
    if (cells[2] == "point_triangle") {
      ++point_triangle;
      CHECK(!cells[7].empty());  // the triangle's index in its body
    } else {
      CHECK(cells[2] == "edge_edge");
      CHECK(cells[7].empty());
    }
  }
  CHECK(rows == motion["collisions"].get<std::size_t>());
  CHECK(point_triangle > 0);
  CHECK(rows > point_triangle);
}

TEST_CASE("certify's motion report tells the frames' time from the motion parameter", "[certify][obj][ccd]") {
  // A tetrahedron falls through a box between two frames; its bottom face (z = 1.5)
  // reaches the box's top (z = 1) at the motion parameter s = 1/6.
  const test::Surface box = test::box({0, 0, 0}, {1, 1, 1});
  const test::Surface tet = test::tet({0.4, 0.4, 1.5}, {0.6, 0.4, 1.5}, {0.4, 0.6, 1.5}, {0.4, 0.4, 1.7});
  const test::Surface fallen = test::translated(tet, {0, 0, -3});
  CertifyOptions options;
  options.continuous = true;
  auto text_of = [](const CertifyReport& r) {
    std::ostringstream s;
    print_report(r, s);
    return s.str();
  };
  auto json_of = [](const CertifyReport& r) {
    std::ostringstream s;
    print_report_json(r, s);
    return nlohmann::json::parse(s.str());
  };
  using Catch::Matchers::Contains;
  SECTION("an eipc trajectory: frames at 0.1 s and 0.2 s, first contact at 0.1 + 0.1 / 6 s") {
    const CertifyReport r =
        certify_trajectory(test::trajectory_of({"box", "tet"}, {{box, tet}, {box, fallen}}, {0.1, 0.2}), options);
    const std::string text = text_of(r);
    INFO(text);
    CHECK_THAT(text, Contains("2 bodies, 2 frames"));
    CHECK_THAT(text, Contains("motion 0 -> 1  (t = 0.1 s to 0.2 s)  collision: "));
    CHECK_THAT(text, Contains(", first contact at s in [0.166667, 0.166667] (motion parameter: 0 at frame 0, 1 at "
                              "frame 1), t in [0.116667, 0.116667] s\n"));
    const auto j = json_of(r);
    CHECK(j["times"] == "seconds");
    CHECK(j["length_unit"] == "m");
    const auto& first = j["motions"][0]["first"];
    CHECK(first["first_contact"][0].get<double>() <= 1.0 / 6);  // still the motion parameter
    CHECK(first["first_contact"][1].get<double>() >= 1.0 / 6);
    const double lo = first["first_contact_time"][0], hi = first["first_contact_time"][1];
    CHECK(lo <= hi);
    CHECK(lo == Approx(0.1 + 0.1 / 6).epsilon(1e-12));
    CHECK(hi == Approx(0.1 + 0.1 / 6).epsilon(1e-12));
    // The bracket in time comes from the bracket in s, rounded outward.
    const auto t = r.motions[0].times_of(first["first_contact"][0], first["first_contact"][1]);
    CHECK(t[0] == lo);
    CHECK(t[1] == hi);
    CHECK(r.motions[0].times_of(0.5, 0.5)[0] <= 0.15);
    CHECK(r.motions[0].times_of(0.5, 0.5)[1] >= 0.15);
  }
  SECTION("OBJ frames have no times: frame indices and the motion parameter only") {
    TempDir dir("motion_times");
    write_obj(dir.path / "f0.obj", {{"box", box}, {"tet", tet}});
    write_obj(dir.path / "f1.obj", {{"box", box}, {"tet", fallen}});
    const CertifyReport r = certify_input(dir.path.string(), options);
    const std::string text = text_of(r);
    INFO(text);
    CHECK_THAT(text, Contains("motion 0 -> 1  collision: "));
    CHECK_THAT(text, Contains(", first contact at s in [0.166667, 0.166667] (motion parameter: 0 at frame 0, 1 at "
                              "frame 1); the frames have no times\n"));
    CHECK_THAT(text, !Contains("t in [") && !Contains("t = "));
    const auto j = json_of(r);
    CHECK(j["times"] == "none");
    CHECK(j["length_unit"].is_null());
    CHECK(j["motions"][0]["first"]["first_contact"].size() == 2);
    CHECK(j["motions"][0]["first"]["first_contact_time"].is_null());
  }
  SECTION("one body") {
    const CertifyReport r = certify_trajectory(test::trajectory_of({"box"}, {{box}, {box}}, {0.0, 0.5}), options);
    CHECK_THAT(text_of(r), Contains("1 body, 2 frames"));
  }
}
