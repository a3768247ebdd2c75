#include <catch2/catch.hpp>
#include "eipc/util/parallel.hpp"
TEST_CASE("thread limit reports its count", "[util]") {
  eipc::ThreadLimit limit(1);
  CHECK(limit.threads() == 1);
}
