// The published CCD queries with exact ground truth (tests/data/ccd/README.md),
// read for the tests that decide them.
#pragma once

#include "eipc/common.hpp"

#include <array>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace eipc::test {

struct PublishedQuery {
  std::string source, type;  ///< type "vf" (point, triangle) or "ee" (edge, edge)
  bool truth = false;        ///< the primitives reach distance exactly 0 for some t in [0, 1]
  std::array<Vec3, 8> x;     ///< 4 vertices at t = 0, then at t = 1
};

inline std::vector<PublishedQuery> load_published_queries() {
  std::ifstream in(std::string(EIPC_TEST_DATA) + "/ccd/ccd_sample_double.csv");
  if (!in) throw std::runtime_error("cannot open tests/data/ccd/ccd_sample_double.csv");
  std::vector<PublishedQuery> out;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::stringstream ss(line);
    std::string field;
    PublishedQuery q;
    std::getline(ss, q.source, ',');
    std::getline(ss, q.type, ',');
    std::getline(ss, field, ',');  // index
    std::getline(ss, field, ',');
    q.truth = field == "1";
    for (int i = 0; i < 24; ++i) {
      if (!std::getline(ss, field, ',')) throw std::runtime_error("short line in ccd_sample_double.csv");
      q.x[i / 3][i % 3] = std::strtod(field.c_str(), nullptr);
    }
    out.push_back(q);
  }
  return out;
}

}  // namespace eipc::test
