// import/chrome_json/json_number.hpp — JSON number tokens read exactly, without floating point.
// Contract: decimal_to_scaled_int reads the text of a JSON number (optional '-', digits, optional
// fraction, optional exponent; no surrounding whitespace) and returns value × 10^scale rounded to
// the nearest integer, halves away from zero — e.g. microseconds "6347722214448.11" with scale 3
// give nanoseconds 6347722214448110 exactly, where a double would already have rounded. Up to 38
// significant digits are used (later ones only decide the rounding). Text that is not a JSON
// number, and results outside int64, give std::nullopt. parse_json_int reads an integer token
// (no fraction, no exponent) the same way.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace npkit {

std::optional<std::int64_t> decimal_to_scaled_int(std::string_view text, int scale);

std::optional<std::int64_t> parse_json_int(std::string_view text);
std::optional<std::uint64_t> parse_json_uint(std::string_view text);

}  // namespace npkit
