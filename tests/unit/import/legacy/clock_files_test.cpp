// Clock text files as exact rationals, and tick → ns conversions, computed by hand.
#include "import/legacy/clock_files.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>

using npkit::Rational;

namespace {

Rational parse_ok(std::string_view text) {
  auto r = npkit::parse_decimal_rational(text, "gpu_clock_rate_rank_0");
  INFO("text: '" << text << "'");
  REQUIRE(r.ok());
  return *r;
}

void parse_fails(std::string_view text) {
  auto r = npkit::parse_decimal_rational(text, "gpu_clock_rate_rank_7");
  INFO("text: '" << text << "'");
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error().message, Catch::Contains("gpu_clock_rate_rank_7"));
}

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

}  // namespace

TEST_CASE("clock text: integers and %f floats", "[ingest][clock]") {
  CHECK(parse_ok("1755000") == Rational{1755000, 1});
  CHECK(parse_ok("100000.000000") == Rational{100000, 1});  // RCCL's %f
  CHECK(parse_ok("  42\n") == Rational{42, 1});
  CHECK(parse_ok("1.5") == Rational{3, 2});
  CHECK(parse_ok("1328500.5") == Rational{2657001, 2});
  CHECK(parse_ok("0.25") == Rational{1, 4});
  CHECK(parse_ok("1000000000") == Rational{1000000000, 1});
}

TEST_CASE("clock text: garbage, zero, empty are errors naming the value", "[ingest][clock]") {
  parse_fails("garbage");
  parse_fails("0");
  parse_fails("0.000000");
  parse_fails("");
  parse_fails("  \n");
  parse_fails("-5");
  parse_fails("1e6");
  parse_fails("1.2.3");
  parse_fails(".");
  parse_fails("12 34");
  parse_fails("99999999999999999999");  // 20 digits, beyond u64
  auto r = npkit::parse_decimal_rational("abc", "cpu_clock_period_den_rank_3");
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error().message, Catch::Contains("'abc'"));
}

TEST_CASE("format_rational", "[ingest][clock]") {
  CHECK(npkit::format_rational({1755000, 1}) == "1755000");
  CHECK(npkit::format_rational({3, 2}) == "3/2");
}

TEST_CASE("cpu_ticks_to_ns: exact, rounded to nearest, saturating", "[ingest][clock]") {
  const Rational ns{1, 1000000000};
  CHECK(npkit::cpu_ticks_to_ns(0, ns) == 0);
  CHECK(npkit::cpu_ticks_to_ns(1700000000123456789ULL, ns) == 1700000000123456789LL);
  // Microsecond ticks: 5 ticks = 5000 ns.
  CHECK(npkit::cpu_ticks_to_ns(5, {1, 1000000}) == 5000);
  // 1/3 s per tick: 1 tick = 333,333,333.33 ns -> 333,333,333; 2 ticks = 666,666,666.67 -> ...667.
  CHECK(npkit::cpu_ticks_to_ns(1, {1, 3}) == 333333333);
  CHECK(npkit::cpu_ticks_to_ns(2, {1, 3}) == 666666667);
  // 2^64-1 ns does not fit in int64.
  CHECK(npkit::cpu_ticks_to_ns(UINT64_MAX, ns) == kMax);
  // 2^64-1 ticks of 10^12 s: the product overflows even 128 bits.
  CHECK(npkit::cpu_ticks_to_ns(UINT64_MAX, {1000000000000ULL, 1}) == kMax);
}

TEST_CASE("gpu_ticks_to_ns: ns = ticks * 1e6 / kHz, rounded, signed", "[ingest][clock]") {
  const Rational ghz{1000000, 1};  // 1 GHz: 1 tick = 1 ns
  CHECK(npkit::gpu_ticks_to_ns(1234, ghz) == 1234);
  CHECK(npkit::gpu_ticks_to_ns(-1234, ghz) == -1234);
  // 1.755 GHz: 1755 ticks = 1000 ns; 1 tick = 0.57 ns -> 1.
  const Rational a100{1755000, 1};
  CHECK(npkit::gpu_ticks_to_ns(1755, a100) == 1000);
  CHECK(npkit::gpu_ticks_to_ns(-1755, a100) == -1000);
  CHECK(npkit::gpu_ticks_to_ns(1, a100) == 1);
  // 100 MHz (AMD wall clock): 1 tick = 10 ns.
  CHECK(npkit::gpu_ticks_to_ns(7, {100000, 1}) == 70);
  // 3 GHz: 1 tick = 0.333 ns -> 0; 2 ticks = 0.667 ns -> 1; symmetric for negative deltas.
  const Rational three{3000000, 1};
  CHECK(npkit::gpu_ticks_to_ns(1, three) == 0);
  CHECK(npkit::gpu_ticks_to_ns(2, three) == 1);
  CHECK(npkit::gpu_ticks_to_ns(-1, three) == 0);
  CHECK(npkit::gpu_ticks_to_ns(-2, three) == -1);
  // Fractional kHz 1328500.5 = 2657001/2: 2657001 ticks = 2657001 * 1e6 * 2 / 2657001 = 2e6 ns.
  CHECK(npkit::gpu_ticks_to_ns(2657001, {2657001, 2}) == 2000000);
  // 1 kHz: 1 tick = 1e6 ns, so INT64 extremes saturate.
  CHECK(npkit::gpu_ticks_to_ns(kMax, {1, 1}) == kMax);
  CHECK(npkit::gpu_ticks_to_ns(kMin, {1, 1}) == kMin);
}
