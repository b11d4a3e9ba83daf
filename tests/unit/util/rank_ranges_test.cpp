// rank_ranges: runs of consecutive ranks as "a-b", others alone, comma-separated.
#include "util/rank_ranges.hpp"

#include <catch2/catch.hpp>

TEST_CASE("rank ranges: runs and single ranks", "[util]") {
  CHECK(npkit::rank_ranges({}).empty());
  CHECK(npkit::rank_ranges({4}) == "4");
  CHECK(npkit::rank_ranges({0, 1, 2, 5, 7, 8}) == "0-2,5,7-8");
}
