// readable_duration: four significant digits in the largest unit the value reaches.
#include "util/readable_duration.hpp"

#include <catch2/catch.hpp>

TEST_CASE("readable duration: four significant digits in the unit the value reaches", "[util]") {
  using npkit::readable_duration;
  CHECK(readable_duration(std::int64_t{0}) == "0 us");
  CHECK(readable_duration(512.4) == "512 ns");
  CHECK(readable_duration(std::int64_t{1760}) == "1.760 us");
  CHECK(readable_duration(22048.0) == "22.05 us");
  CHECK(readable_duration(980733.0) == "980.7 us");
  CHECK(readable_duration(std::int64_t{1701851}) == "1.702 ms");
  CHECK(readable_duration(std::int64_t{232340751903}) == "232.3 s");
  CHECK(readable_duration(std::int64_t{46014691908}) == "46.01 s");
  CHECK(readable_duration(std::int64_t{4'000'000'000'000}) == "4000.0 s");
  CHECK(readable_duration(-2500.0) == "-2.500 us");
}

TEST_CASE("readable duration: rounding up to 1000 moves to the next unit", "[util]") {
  using npkit::readable_duration;
  CHECK(readable_duration(999960.0) == "1.000 ms");
  CHECK(readable_duration(999.96) == "1.000 us");
  CHECK(readable_duration(999940.0) == "999.9 us");
}
