// Records per buffer of the event recorders from NPKIT_BUFFER_SIZE_MB, computed by hand.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "capture/plugin/scoped_env.hpp"
#include "device_recorder/recorder_memory.hpp"

using npkit::capture::buffer_size_mb_from_environment;
using npkit::capture::records_per_buffer;

TEST_CASE("recorder memory: MiB split over buffers of 24-byte records", "[capture]") {
  CHECK(records_per_buffer(64, 32) == 87381);               // 67,108,864 / (32 * 24) = 87,381.33
  CHECK(records_per_buffer(1, 1) == 43690);                 // 1,048,576 / 24 = 43,690.67
  CHECK(records_per_buffer(1, 1'000'000) == 1);             // at least one record
  CHECK(records_per_buffer(1u << 20, 1) == 0xFFFFFFFFull);  // capped at the u32 capacity
  CHECK(records_per_buffer(64, 0) == 0);
}

TEST_CASE("recorder memory: NPKIT_BUFFER_SIZE_MB, default and bad values", "[capture]") {
  std::vector<std::string> warnings;
  {
    npkit::test::ScopedEnv unset("NPKIT_BUFFER_SIZE_MB", std::nullopt);
    CHECK(buffer_size_mb_from_environment(&warnings) == 64);
    CHECK(warnings.empty());
  }
  {
    npkit::test::ScopedEnv set("NPKIT_BUFFER_SIZE_MB", "3");
    CHECK(buffer_size_mb_from_environment(&warnings) == 3);
    CHECK(warnings.empty());
  }
  {
    npkit::test::ScopedEnv bad("NPKIT_BUFFER_SIZE_MB", "0.5");
    CHECK(buffer_size_mb_from_environment(&warnings) == 64);
    REQUIRE(warnings.size() == 1);
    CHECK_THAT(warnings[0], Catch::Contains("NPKIT_BUFFER_SIZE_MB"));
  }
}
