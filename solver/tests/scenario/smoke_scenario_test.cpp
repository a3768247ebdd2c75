#include <catch2/catch.hpp>
#include "eipc/util/parallel.hpp"
TEST_CASE("thread limit applies in a scenario process", "[util]") {
  eipc::ThreadLimit limit(1);
  CHECK(limit.threads() == 1);
}
