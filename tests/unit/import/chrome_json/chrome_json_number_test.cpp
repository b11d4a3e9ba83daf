// JSON number tokens to integers without floating point: the expected values are the decimal
// arithmetic done by hand (value × 10^scale, halves away from zero).
#include "import/chrome_json/json_number.hpp"

#include <catch2/catch.hpp>

#include <limits>

using npkit::decimal_to_scaled_int;
using npkit::parse_json_int;
using npkit::parse_json_uint;

TEST_CASE("microsecond timestamps become exact nanoseconds", "[chrome_json]") {
  // The generator's float µs: 6347722214448.11 µs = 6347722214448110 ns exactly (a double
  // would give ...448109.9 or ...448110.2 depending on the rounding path).
  CHECK(decimal_to_scaled_int("6347722214448.11", 3) == 6347722214448110);
  CHECK(decimal_to_scaled_int("0.150", 3) == 150);
  CHECK(decimal_to_scaled_int("1000.100", 3) == 1000100);
  CHECK(decimal_to_scaled_int("0", 3) == 0);
  CHECK(decimal_to_scaled_int("-0", 3) == 0);
  CHECK(decimal_to_scaled_int("-2.5", 3) == -2500);
  CHECK(decimal_to_scaled_int("12", 3) == 12000);
  // NCCL's example plugin prints %f: six decimals, sub-nanosecond digits rounded.
  CHECK(decimal_to_scaled_int("1467846.533691", 3) == 1467846534);  // 0.691 ns rounds up
  CHECK(decimal_to_scaled_int("0.0004", 3) == 0);
  CHECK(decimal_to_scaled_int("0.0005", 3) == 1);    // a half rounds away from zero
  CHECK(decimal_to_scaled_int("-0.0005", 3) == -1);  // on both sides
  CHECK(decimal_to_scaled_int("0.00049999999999999999999", 3) == 0);
  CHECK(decimal_to_scaled_int("0.00050000000000000000001", 3) == 1);
}

TEST_CASE("exponents and long mantissas", "[chrome_json]") {
  CHECK(decimal_to_scaled_int("1e3", 3) == 1000000);
  CHECK(decimal_to_scaled_int("1.5E+2", 3) == 150000);
  CHECK(decimal_to_scaled_int("25e-4", 3) == 3);  // 2.5 ns → 3
  CHECK(decimal_to_scaled_int("1.7e15", 3) == 1700000000000000000);
  // 40 significant digits: digits past the 38th only decide the rounding.
  CHECK(decimal_to_scaled_int("1234567890123456.7890123456789012345678901", 3) ==
        1234567890123456789);
  CHECK(decimal_to_scaled_int("1e-400", 3) == 0);
}

TEST_CASE("what is not a JSON number, or does not fit, is rejected", "[chrome_json]") {
  for (const char* bad :
       {"", "-", "+1", "01", ".5", "5.", "1e", "1e+", "0x1F", "1.2.3", "12 ", "NaN", "1,5"}) {
    INFO(bad);
    CHECK_FALSE(decimal_to_scaled_int(bad, 3));
  }
  CHECK_FALSE(decimal_to_scaled_int("9223372036854775.808", 3));  // 2^63 ns
  CHECK(decimal_to_scaled_int("9223372036854775.807", 3) ==
        std::numeric_limits<std::int64_t>::max());
  CHECK(decimal_to_scaled_int("-9223372036854775.808", 3) ==
        std::numeric_limits<std::int64_t>::min());
  CHECK_FALSE(decimal_to_scaled_int("1e400", 3));
}

TEST_CASE("integer tokens", "[chrome_json]") {
  CHECK(parse_json_int("42") == 42);
  CHECK(parse_json_int("-7") == -7);
  CHECK_FALSE(parse_json_int("4.0"));
  CHECK_FALSE(parse_json_int("1e2"));
  CHECK(parse_json_uint("12715772615376301750") == 12715772615376301750ull);  // a CommHash
  CHECK(parse_json_uint("18446744073709551615") == std::numeric_limits<std::uint64_t>::max());
  CHECK_FALSE(parse_json_uint("18446744073709551616"));
  CHECK_FALSE(parse_json_uint("-1"));
}
