// The measurements of a run and their element counts, in nccl-tests' conventions, by hand.
#include <catch2/catch.hpp>

#include "measurement_plan.hpp"

using device_collectives::Options;
using device_collectives::plan_measurements;

TEST_CASE("plan: all-reduce then all-to-all, sizes ascending", "[device-collectives]") {
  Options options;
  options.sizes = {64, 1048576};
  const auto plan = plan_measurements(options, 3);
  REQUIRE(plan.size() == 4);
  CHECK(plan[0].coll == "allreduce");
  CHECK(plan[0].size_bytes == 64);
  CHECK(plan[0].count == 16);     // floats
  CHECK(plan[0].elements4 == 4);  // float4
  CHECK(plan[1].size_bytes == 1048576);
  CHECK(plan[1].elements4 == 65536);
  // 64 B over 3 ranks: floor(64 / 48) = 1 float4 per peer, S = 48 B.
  CHECK(plan[2].coll == "alltoall");
  CHECK(plan[2].size_bytes == 48);
  CHECK(plan[2].count == 4);
  CHECK(plan[2].elements4 == 1);
  // 1 MiB over 3 ranks: floor(1048576 / 48) = 21845 float4 per peer, S = 1048560 B.
  CHECK(plan[3].size_bytes == 1048560);
  CHECK(plan[3].count == 87380);
}

TEST_CASE("plan: a size too small for every peer is left out", "[device-collectives]") {
  Options options;
  options.sizes = {16, 32};
  options.allreduce = false;
  const auto plan = plan_measurements(options, 4);  // 16 * 4 = 64 B needed
  CHECK(plan.empty());
}
