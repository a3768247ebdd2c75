#include "ccd_queries.hpp"

#include "eipc/common.hpp"
#include "eipc/ccd/additive_ccd.hpp"
#include "eipc/certify/exact_ccd.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace eipc {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const auto pos = s.find(sep, start);
    out.push_back(trim(s.substr(start, pos - start)));
    if (pos == std::string::npos) return out;
    start = pos + 1;
  }
}

std::string number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

[[noreturn]] void fail(long line, const std::string& what) {
  throw InputError("CCD queries, line " + std::to_string(line) + ": " + what);
}

}  // namespace

int run_ccd_queries(std::istream& in, std::ostream& out, bool exact) {
  AdditiveCcdOptions options;
  options.stop_fraction = 1e-6;
  std::string text;
  long line = 0;
  while (std::getline(in, text)) {
    ++line;
    const std::string t = trim(text);
    if (t.empty() || t[0] == '#') continue;
    const auto fields = split(t, ',');
    const std::string& type = fields[0];
    if (type != "vf" && type != "ee") fail(line, "query type '" + type + "' is neither 'vf' nor 'ee'");
    if (fields.size() != 25)
      fail(line, "expected the type and 24 coordinates, found " + std::to_string(fields.size() - 1) + " values");
    std::array<Vec3, 8> x;
    for (int i = 0; i < 24; ++i) {
      const std::string& f = fields[i + 1];
      char* end = nullptr;
      const double v = std::strtod(f.c_str(), &end);
      if (f.empty() || end != f.c_str() + f.size() || !std::isfinite(v))
        fail(line, "coordinate " + std::to_string(i + 1) + " ('" + f + "') is not a finite number");
      x[i / 3][i % 3] = v;
    }
    double toi = 0.0;
    const bool hit = type == "vf"
                         ? point_triangle_ccd(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], 0.0, 1.0, toi, options)
                         : edge_edge_ccd(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], 0.0, 1.0, toi, options);
    out << (hit ? "1 " + number(toi) : std::string("0"));
    if (exact) {
      const std::array<Vec3, 4> x0{x[0], x[1], x[2], x[3]}, x1{x[4], x[5], x[6], x[7]};
      const certify::PairDecision d =
          type == "vf" ? certify::decide_point_triangle(x0, x1) : certify::decide_edge_edge(x0, x1);
      out << (d.verdict == certify::MotionVerdict::collision ? " exact 1 " + number(d.t_lo) + " " + number(d.t_hi)
                                                             : std::string(" exact 0"));
    }
    out << '\n';
  }
  return 0;
}

}  // namespace eipc
