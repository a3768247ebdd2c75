// eipc fields: RUN.fields.h5 is written and the XDMF sidecars reference its point arrays;
// bad intersection marks are input errors that leave no fields file behind. (The arrays'
// values are checked against the positions by ctest -R paraview_readers.)
#include "eipc/io/trajectory_fields.hpp"
#include "eipc/io/trajectory_file.hpp"
#include "trajectory_fixture.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace eipc;
using eipc::test::ScratchDir;

namespace {

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("eipc fields writes the fields file and points both sidecars at it", "[io][xdmf]") {
  ScratchDir dir("traj_fields");
  const std::string path = test::write_complete(dir, "run.h5");
  const std::string before = test::read_bytes(path);
  const TrajectoryFieldsSummary s = write_trajectory_fields(path, std::vector<IntersectionMark>{{1, "cube", 4}});
  CHECK(s.path == dir.file("run.fields.h5"));
  CHECK(std::filesystem::exists(s.path));
  CHECK_FALSE(std::filesystem::exists(s.path + ".partial"));
  CHECK(s.frames == 3);
  CHECK(s.marked_points == 1);
  CHECK(s.arrays == std::vector<std::string>{"body_id", "velocity", "ground_distance", "intersecting"});
  CHECK(test::read_bytes(path) == before);  // the trajectory itself is untouched

  const std::string xdmf = test::read_bytes(dir.file("run.xdmf"));
  const std::string xdmf2 = test::read_bytes(dir.file("run.xdmf2"));
  // 3 frames x 2 bodies, each with the four arrays.
  for (const std::string* xml : {&xdmf, &xdmf2}) {
    CHECK(count(*xml, "<Attribute Name=\"velocity\" AttributeType=\"Vector\" Center=\"Node\">") == 6);
    CHECK(count(*xml, "<Attribute Name=\"body_id\" AttributeType=\"Scalar\" Center=\"Node\">") == 6);
    CHECK(count(*xml, "<Attribute Name=\"intersecting\"") == 6);
    CHECK(count(*xml, "<Attribute Name=\"ground_distance\"") == 6);
  }
  CHECK(xdmf.find("run.fields.h5:/bodies/cube/velocity|1 0 0:1 1 1:1 5 3:3 5 3</DataItem>") != std::string::npos);
  CHECK(xdmf.find("run.fields.h5:/bodies/floor &amp; &lt;plate&gt;/intersecting|2 0:1 1:1 4:3 4</DataItem>") !=
        std::string::npos);
  CHECK(xdmf2.find("Format=\"HDF\">run.fields.h5:/bodies/cube/velocity</DataItem>") != std::string::npos);

  SECTION("without a certificate there is no intersecting array") {
    const TrajectoryFieldsSummary plain = write_trajectory_fields(path, std::nullopt);
    CHECK(plain.marked_points == 0);
    CHECK(plain.arrays == std::vector<std::string>{"body_id", "velocity", "ground_distance"});
    CHECK(test::read_bytes(dir.file("run.xdmf")).find("intersecting") == std::string::npos);
  }
}

TEST_CASE("eipc fields rejects marks outside the trajectory", "[io][xdmf]") {
  ScratchDir dir("traj_fields_bad");
  const std::string path = test::write_complete(dir, "run.h5");
  const auto error_of = [&](const IntersectionMark& m) {
    try {
      write_trajectory_fields(path, std::vector<IntersectionMark>{m});
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(error_of({0, "teddy", 0}), Catch::Contains("unknown body 'teddy'"));
  CHECK_THAT(error_of({3, "cube", 0}), Catch::Contains("frame 3 is out of range"));
  CHECK_THAT(error_of({0, "cube", 5}), Catch::Contains("vertex 5 of body 'cube' is out of range"));
  CHECK_FALSE(std::filesystem::exists(dir.file("run.fields.h5")));
  CHECK_FALSE(std::filesystem::exists(dir.file("run.fields.h5.partial")));
}
