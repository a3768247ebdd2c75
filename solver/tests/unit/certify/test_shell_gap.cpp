// What certify says of shells (docs/certify.md, "Shells"): their mid-surfaces
// are certified exactly; the smallest gap beyond their contact offsets is measured.
#include <catch2/catch.hpp>

#include "eipc/certify/certify.hpp"
#include "test_meshes.hpp"

#include <nlohmann/json.hpp>

#include <sstream>

using namespace eipc;
using namespace eipc::certify;

namespace {

/// A 0.6 m square sheet (two triangles) over the top (z = 0) of a unit box, its
/// mid-surface at each of `heights` in turn; the sheet 2 mm thick when `shell`.
Trajectory sheet_over_box(const std::vector<double>& heights, bool shell) {
  Positions sheet(4, 3);
  sheet << 0.2, 0.2, 0, 0.8, 0.2, 0, 0.8, 0.8, 0, 0.2, 0.8, 0;
  Tris faces(2, 3);
  faces << 0, 1, 2, 0, 2, 3;
  const test::Surface box = test::box({0, 0, -1}, {1, 1, 0});
  Trajectory tr;
  tr.header.bodies.push_back({"sheet", "full", false, sheet, faces, {}, std::nullopt});
  tr.header.bodies.push_back({"box", "full", false, box.x, box.faces, {}, std::nullopt});
  const std::string model = shell ? R"("model": "stvk_shell", "thickness": 0.002)" : R"("model": "neo_hookean")";
  tr.header.scene_json = R"({"bodies": [{"name": "sheet", "material": {)" + model +
                         R"(}}, {"name": "box", "material": {"model": "neo_hookean"}}]})";
  tr.header.contact_json = R"({"dhat": 0.001})";
  for (double z : heights) {
    Frame f;
    Positions x = sheet;
    x.col(2).setConstant(z);
    f.positions = {x, box.x};
    tr.frames.push_back(f);
  }
  return tr;
}

std::string text_of(const CertifyReport& r) {
  std::ostringstream out;
  print_report(r, out);
  return out.str();
}

nlohmann::json json_of(const CertifyReport& r) {
  std::ostringstream out;
  print_report_json(r, out);
  return nlohmann::json::parse(out.str());
}

}  // namespace

TEST_CASE("certify measures a shell's smallest gap beyond its contact offset", "[certify][shell]") {
  // Offset to the box: half the sheet's 2 mm. Mid-surface 1.5 mm, then 1.2 mm up: gaps 0.5, 0.2 mm.
  const CertifyReport r = certify_trajectory(sheet_over_box({0.0015, 0.0012}, true));
  CHECK(r.all_clear());
  REQUIRE(r.shell_gap);
  CHECK(r.shell_gap->gap == Approx(2e-4).margin(1e-15));
  CHECK(r.shell_gap->frame == 1);
  CHECK(r.shell_gap->body_a == 0);
  CHECK(r.shell_gap->body_b == 1);
  const std::string text = text_of(r);
  CHECK(text.find("'sheet' 0.002 m thick") != std::string::npos);
  CHECK(text.find("smallest gap beyond the offsets 0.0002 m (frame 1, 'sheet' and 'box')") != std::string::npos);
  CHECK(text.find("MEET") == std::string::npos);
  const auto j = json_of(r)["shell_gap"];
  CHECK(j["thickness"]["sheet"] == 0.002);
  CHECK(j["gap"].get<double>() == Approx(2e-4).margin(1e-15));
  CHECK(j["frame"] == 1);
  CHECK(j["body_a"] == "sheet");
  CHECK(j["body_b"] == "box");
}

TEST_CASE("certify says when a shell's offset surfaces meet, its mid-surface still certified", "[certify][shell]") {
  // 0.8 mm up: the mid-surfaces are apart (ALL CLEAR), the offset surfaces 0.2 mm into each other.
  const CertifyReport r = certify_trajectory(sheet_over_box({0.0015, 0.0008}, true));
  CHECK(r.all_clear());
  REQUIRE(r.shell_gap);
  CHECK(r.shell_gap->gap == Approx(-2e-4).margin(1e-15));
  CHECK(text_of(r).find("THE OFFSET SURFACES MEET") != std::string::npos);
}

TEST_CASE("certify reports no shell gap without shells, or nothing within reach", "[certify][shell]") {
  const CertifyReport solid = certify_trajectory(sheet_over_box({0.0012}, false));
  CHECK_FALSE(solid.shell_gap);
  CHECK(text_of(solid).find("shells:") == std::string::npos);
  CHECK(json_of(solid)["shell_gap"].is_null());
  // 5 mm up: the gap, 4 mm, is beyond dhat = 1 mm, where the search stops.
  const CertifyReport far = certify_trajectory(sheet_over_box({0.005}, true));
  REQUIRE(far.shell_gap);
  CHECK(text_of(far).find("no pair with a shell came within 0.001 m of its offset") != std::string::npos);
  CHECK(json_of(far)["shell_gap"]["gap"].is_null());
}
