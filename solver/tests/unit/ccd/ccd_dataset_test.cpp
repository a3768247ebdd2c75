// CCD on the published queries with exact ground truth (tests/data/ccd/README.md):
// zero false negatives required, false-positive rate printed.
#include <catch2/catch.hpp>

#include "eipc/ccd/additive_ccd.hpp"
#include "published_queries.hpp"

#include <iostream>

namespace {

using Query = eipc::test::PublishedQuery;

bool run(const Query& q, double& toi, const eipc::AdditiveCcdOptions& opt) {
  const auto& x = q.x;
  if (q.type == "vf")
    return eipc::point_triangle_ccd(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], 0.0, 1.0, toi, opt);
  return eipc::edge_edge_ccd(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], 0.0, 1.0, toi, opt);
}

}  // namespace

TEST_CASE("CCD has no false negatives on the published queries", "[contact][ccd]") {
  const auto queries = eipc::test::load_published_queries();
  REQUIRE(queries.size() == 2444);
  eipc::AdditiveCcdOptions opt;
  opt.stop_fraction = GENERATE(0.1, 0.01, 0.001, 1e-6);
  int positives = 0, negatives = 0, false_negatives = 0, false_positives = 0;
  int vf_fp = 0, vf_neg = 0, ee_fp = 0, ee_neg = 0;
  for (const auto& q : queries) {
    double toi = -1.0;
    const bool hit = run(q, toi, opt);
    if (hit) {
      CHECK(toi >= 0.0);
      CHECK(toi <= 1.0);
    }
    if (q.truth) {
      ++positives;
      if (!hit) {
        ++false_negatives;
        UNSCOPED_INFO("missed " << q.type << " from " << q.source);
      }
    } else {
      ++negatives;
      (q.type == "vf" ? vf_neg : ee_neg)++;
      if (hit) {
        ++false_positives;
        (q.type == "vf" ? vf_fp : ee_fp)++;
      }
    }
  }
  std::cout << "[ccd dataset, stop_fraction " << opt.stop_fraction << "] " << positives << " positives, " << negatives << " negatives; false negatives "
            << false_negatives << ", false positives " << false_positives << " ("
            << 100.0 * false_positives / negatives << "% of negatives; vf " << vf_fp << "/" << vf_neg << ", ee "
            << ee_fp << "/" << ee_neg << ")\n";
  CHECK(false_negatives == 0);
}
