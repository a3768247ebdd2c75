// `eipc convert`: a dataset certify reads becomes an eipc trajectory with the same bodies and
// frames, and its certificate (in the files' indices) becomes the one `eipc certify` gives
// for the trajectory, so analysis/render and eipc fields mark the right triangles.
#include "cli_test_helpers.hpp"
#include "eipc/io/trajectory_file.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace eipc;
using namespace eipc::test;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

// Unit cube corners (index x + 2y + 4z) and its outward quads, 0-based.
const int kQuads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};

// Two unit cubes A and B per frame, in one OBJ: B beside A in frame 0, 0.5 into it in frame 1.
// With objects, `o A` / `o B` make them bodies A and B (B is vertices 8..15 and triangles
// 12..23 of the file); without, the file is one mesh, split by --bodies components.
void write_frames(const fs::path& dir, bool objects) {
  fs::create_directories(dir);
  const double shift[2][3] = {{2.1, 0, 0}, {0.5, 0.1, 0.1}};
  for (int k = 0; k < 2; ++k) {
    std::ofstream obj(dir / ("f" + std::to_string(k) + ".obj"));
    for (int body = 0; body < 2; ++body)
      for (int c = 0; c < 8; ++c)
        obj << "v " << (c & 1) + body * shift[k][0] << ' ' << ((c >> 1) & 1) + body * shift[k][1] << ' '
            << ((c >> 2) & 1) + body * shift[k][2] << '\n';
    for (int body = 0; body < 2; ++body) {
      if (objects) obj << "o " << (body ? "B" : "A") << '\n';
      for (const auto& q : kQuads)
        obj << "f " << q[0] + 1 + 8 * body << ' ' << q[1] + 1 + 8 * body << ' ' << q[2] + 1 + 8 * body << ' '
            << q[3] + 1 + 8 * body << '\n';
    }
  }
}

json read_json(const fs::path& p) {
  std::ifstream in(p);
  return json::parse(in);
}

// The items of a report that name triangles and vertices (the summary's pairs also hold
// their first time, which a dataset without times does not have).
json indexed_items(const json& report) {
  json items = json::array();
  for (const json& f : report.at("frames")) items.push_back({f.at("examples"), f.at("pairs")});
  for (const json& p : report.at("summary").at("pairs")) items.push_back(p.at("deepest"));
  return items;
}

}  // namespace

TEST_CASE("eipc convert: a dataset as a trajectory, its certificate in the trajectory's rows", "[cli]") {
  Workspace w;
  const bool objects = GENERATE(true, false);
  const std::string rule = objects ? "objects" : "components";
  const std::vector<std::string> names = objects ? std::vector<std::string>{"A", "B"}
                                                 : std::vector<std::string>{"frames@0", "frames@8"};
  INFO("--bodies " << rule);
  const fs::path data = w.dir / "frames", cert = w.dir / "frames.certify.json", out = w.dir / "conv" / "run.h5";
  write_frames(data, objects);
  const std::string bodies = " --bodies " + rule;
  REQUIRE(run_eipc("certify " + data.string() + bodies + " --json > " + cert.string()).code == 1);

  const Result r = run_eipc("convert " + data.string() + bodies + " --certificate " + cert.string() + " --out " +
                            out.string() + " --json");
  INFO(r.output);
  REQUIRE(r.code == 0);
  const json summary = json::parse(r.output);
  CHECK(summary.at("bodies") == json(names));
  CHECK(summary.at("frames") == 2);
  CHECK(summary.at("has_times") == false);
  CHECK(summary.at("certificate") == (w.dir / "conv" / "run.certify.json").string());

  // Same bodies, triangles and positions as the files.
  const Trajectory t = read_trajectory(out.string());
  REQUIRE(t.frames.size() == 2);
  REQUIRE(t.header.bodies.size() == 2);
  for (int b = 0; b < 2; ++b) {
    CHECK(t.header.bodies[b].name == names[b]);
    CHECK(t.header.bodies[b].surface.rows() == 12);
    CHECK(t.header.bodies[b].rest.rows() == 8);
  }
  CHECK(t.frames[1].time == 1.0);
  CHECK(t.frames[1].positions[1].row(0) == Vec3(0.5, 0.1, 0.1).transpose());
  CHECK(t.frames[0].positions[1].row(7) == Vec3(3.1, 1, 1).transpose());
  CHECK(fs::exists(w.dir / "conv" / "run.xdmf"));

  // The converted certificate is what certify says of the trajectory, index for index ...
  const json converted = read_json(w.dir / "conv" / "run.certify.json");
  const fs::path direct = w.dir / "direct.json";
  REQUIRE(run_eipc("certify " + out.string() + " --json > " + direct.string()).code == 1);
  CHECK(indexed_items(converted) == indexed_items(read_json(direct)));
  CHECK(converted.at("source") == out.string());
  CHECK(converted.at("dataset_source") == data.string());
  // ... and not the file's: B's triangles are 12..23 of the file, 0..11 of the body.
  const json original = read_json(cert);
  REQUIRE_FALSE(original.at("frames")[1].at("examples").empty());
  for (int i = 0; i < static_cast<int>(original.at("frames")[1].at("examples").size()); ++i) {
    const json &o = original.at("frames")[1].at("examples")[i], &c = converted.at("frames")[1].at("examples")[i];
    CHECK(o.at("triangle_b").get<int>() == c.at("triangle_b").get<int>() + 12);
  }
  CHECK(indexed_items(converted) != indexed_items(original));

  // eipc fields finds the converted certificate beside the trajectory.
  const Result fields = run_eipc("fields " + out.string());
  INFO(fields.output);
  CHECK(fields.code == 0);
  CHECK_THAT(fields.output, Contains("intersecting points marked from " + (w.dir / "conv" / "run.certify.json").string()));
}

TEST_CASE("eipc convert: bad input exits 2 naming the file and the problem", "[cli]") {
  Workspace w;
  const fs::path data = w.dir / "frames", cert = w.dir / "c.json";
  write_frames(data, true);
  REQUIRE(run_eipc("certify " + data.string() + " --json > " + cert.string()).code == 1);
  const std::string out = " --out " + (w.dir / "run.h5").string();
  auto bad = [](const Result& r, const std::string& expected) {
    INFO(r.output);
    CHECK(r.code == 2);
    CHECK_THAT(r.output, Contains(expected));
    CHECK_THAT(r.output, !Contains("internal error"));
  };
  auto edited = [&](const std::string& name, auto edit) {
    json j = read_json(cert);
    edit(j);
    return w.write(name, j.dump());
  };
  bad(run_eipc("convert " + data.string() + " --out x.vtu"), "--out x.vtu: a trajectory is an HDF5 file");
  bad(run_eipc("convert " + (w.dir / "none").string() + out), "none: no such file or directory");
  REQUIRE(run_eipc("convert " + data.string() + out).code == 0);
  bad(run_eipc("convert " + (w.dir / "run.h5").string() + " --out y.h5"), "run.h5: already an eipc trajectory");
  bad(run_eipc("convert " + data.string() + " --bodies components --certificate " + cert.string() + out),
      "c.json: body 'A' is not a body of the dataset (did you mean 'A@0'?); its bodies: A@0, B@8 (read it with "
      "the --bodies the certificate was made with)");
  bad(run_eipc("convert " + data.string() + " --certificate " + w.write("t.json", "{\"frames\": [") + out), "t.json");
  const std::string failed = w.write("e.json", R"({"format": "eipc-certify", "version": 1, "exit_code": 2,
    "error": "frames/f1.obj: line 3: bad"})");
  bad(run_eipc("convert " + data.string() + " --certificate " + failed + out),
      "e.json: a report of no check, only of the error: frames/f1.obj: line 3: bad");
  // RUN.certify.json beside --out must not overwrite the dataset's certificate it translates.
  const std::string same = w.write("run.certify.json", read_json(cert).dump());
  bad(run_eipc("convert " + data.string() + " --certificate " + same + out), "would replace " + same);
  CHECK(read_json(same) == read_json(cert));
  bad(run_eipc("convert " + data.string() + out + " --certificate " +
               edited("f.json", [](json& j) { j["frames"].erase(0); })),
      "f.json: frames: 1 frames, the dataset has 2");
  bad(run_eipc("convert " + data.string() + out + " --certificate " +
               edited("i.json", [](json& j) { j["frames"][1]["examples"][0]["triangle_b"] = 7; })),
      "i.json: frame 1: triangle 7 of body 'B' is not one of its triangles in the dataset");
}
