// `eipc fields`: intersection marks from a certificate (`eipc certify --json`), found beside
// the run by default, and bad certificates reported as input errors (exit 2).
#include "cli_test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace eipc;
using namespace eipc::test;
using Catch::Matchers::Contains;

namespace {

// A certificate naming one triangle pair in frame 1: a's triangle 0 and b's triangle 3.
std::string certificate(const std::string& body_b = "b", const std::string& format = "eipc-certify") {
  return R"({"format": ")" + format + R"(", "version": 1, "frames": [{"frame": 1, "ok": false, "examples": [
    {"kind": "triangle_pair", "body_a": "a", "triangle_a": 0, "body_b": ")" + body_b + R"(", "triangle_b": 3}]}],
    "motions": []})";
}

}  // namespace

TEST_CASE("eipc fields marks the vertices of the triangles a certificate names", "[cli]") {
  Workspace w;
  const std::string run = (w.dir / "run.h5").string();
  REQUIRE(run_eipc("run " + w.scene() + " --out " + run).code == 0);
  const Result r = run_eipc("fields " + run + " --certificate " + w.write("c.json", certificate()));
  INFO(r.output);
  CHECK(r.code == 0);
  CHECK(fs::exists(w.dir / "run.fields.h5"));
  CHECK_THAT(r.output, Contains("6 intersecting points marked"));  // two triangles of different bodies

  SECTION("RUN.certify.json beside the run is used unless --no-certificate") {
    w.write("run.certify.json", certificate());
    CHECK_THAT(run_eipc("fields " + run).output, Contains("6 intersecting points marked"));
    const Result plain = run_eipc("fields " + run + " --no-certificate");
    CHECK(plain.code == 0);
    CHECK_THAT(plain.output, !Contains("intersecting"));
  }
  SECTION("a certificate that is not one, or names another body, is bad input") {
    const Result wrong = run_eipc("fields " + run + " --certificate " + w.write("w.json", certificate("b", "x")));
    CHECK(wrong.code == 2);
    CHECK_THAT(wrong.output, Contains("w.json: format"));
    const Result body = run_eipc("fields " + run + " --certificate " + w.write("b.json", certificate("teddy")));
    CHECK(body.code == 2);
    CHECK_THAT(body.output, Contains("unknown body 'teddy'"));
    const Result broken = run_eipc("fields " + run + " --certificate " + w.write("t.json", "{\"frames\": ["));
    CHECK(broken.code == 2);
    CHECK_THAT(broken.output, Contains("t.json"));
  }
}
