// Text front end of the CCD queries: output format and error messages.
#include <catch2/catch.hpp>

#include "ccd_queries.hpp"
#include "eipc/common.hpp"

#include <sstream>
#include <string>

using namespace eipc;

namespace {
std::string run(const std::string& input, bool exact = false) {
  std::istringstream in(input);
  std::ostringstream out;
  CHECK(run_ccd_queries(in, out, exact) == 0);
  return out.str();
}

std::string error_of(const std::string& input) {
  std::istringstream in(input);
  std::ostringstream out;
  try {
    run_ccd_queries(in, out);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST_CASE("CCD query lines give one answer each", "[contact][ccd_queries]") {
  // Point falls from z = 1 to z = -1 through the triangle z = 0 (contact at t = 0.5);
  // then the same point moving sideways far above it (no contact).
  const std::string hit = "vf,0.2,0.2,1, 0,0,0, 1,0,0, 0,1,0, 0.2,0.2,-1, 0,0,0, 1,0,0, 0,1,0\n";
  const std::string miss = "vf,0.2,0.2,1, 0,0,0, 1,0,0, 0,1,0, 0.4,0.2,1, 0,0,0, 1,0,0, 0,1,0\n";
  // Crossing edges: a along x at z = 1 moving to z = -1, b along y at z = 0 (contact at t = 0.5).
  const std::string ee = "ee,-1,0,1, 1,0,1, 0,-1,0, 0,1,0, -1,0,-1, 1,0,-1, 0,-1,0, 0,1,0\r\n";
  const std::string out = run("# comment\n" + hit + "\n" + miss + ee);
  std::istringstream lines(out);
  int flag;
  double toi;
  lines >> flag >> toi;
  CHECK(flag == 1);
  CHECK(toi <= 0.5);
  CHECK(toi > 0.49);
  lines >> flag;
  CHECK(flag == 0);
  lines >> flag >> toi;
  CHECK(flag == 1);
  CHECK(toi <= 0.5);
  CHECK(toi > 0.49);
  CHECK(!(lines >> flag));
}

TEST_CASE("ccd --exact prints the exact verdict beside the conservative one", "[contact][ccd_queries]") {
  // The point of the first test falling through the face (contact exactly at t = 1/2), and one
  // stopping exactly on the face plane beside the triangle (conservative CCD may flag it; exact says no).
  const std::string hit = "vf,0.2,0.2,1, 0,0,0, 1,0,0, 0,1,0, 0.2,0.2,-1, 0,0,0, 1,0,0, 0,1,0\n";
  const std::string beside = "vf,1,1,1, 0,0,0, 1,0,0, 0,1,0, 1,1,0, 0,0,0, 1,0,0, 0,1,0\n";
  std::istringstream lines(run(hit + beside, true));
  std::string line;
  std::getline(lines, line);
  std::istringstream first(line.substr(line.find("exact")));
  std::string word;
  int flag;
  double lo, hi;
  first >> word >> flag >> lo >> hi;
  CHECK(flag == 1);
  CHECK(lo <= 0.5);
  CHECK(hi >= 0.5);
  CHECK(hi - lo < 1e-12);
  std::getline(lines, line);
  CHECK(line.substr(line.find("exact")) == "exact 0");
}

TEST_CASE("bad CCD query lines name the line and the problem", "[contact][ccd_queries]") {
  const std::string good = "vf,0,0,1,0,0,0,1,0,0,0,1,0,0,0,-1,0,0,0,1,0,0,0,1,0\n";
  CHECK_THAT(error_of(good + "xx,1,2\n"), Catch::Contains("line 2") && Catch::Contains("'xx'"));
  CHECK_THAT(error_of(good + good + "ee,1,2,3\n"), Catch::Contains("line 3") && Catch::Contains("found 3"));
  CHECK_THAT(error_of("vf,0,0,1,0,0,0,1,0,0,0,1,0,0,0,-1,0,0,0,1,0,0,0,abc,0\n"),
             Catch::Contains("line 1") && Catch::Contains("coordinate 23") && Catch::Contains("'abc'"));
  CHECK_THAT(error_of("vf,0,0,1,0,0,0,1,0,0,0,1,0,0,0,-1,0,0,0,1,0,0,0,nan,0\n"), Catch::Contains("not a finite"));
  CHECK_THAT(error_of("vf,0,0,1,0,0,0,1,0,0,0,1,0,0,0,-1,0,0,0,1,0,0,0,,0\n"), Catch::Contains("coordinate 23"));
  CHECK(error_of(good) == "no error");
}
