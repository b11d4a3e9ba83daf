// clock_files.hpp — the per-rank clock text files of a legacy NPKit dump.
// Contract: parses `cpu_clock_period_num/den_rank_R` (integers) and `gpu_clock_rate_rank_R`
// (kHz, an integer or a %f-style float such as "100000.000000") into exact rationals; never
// floating point. Bad or missing values are reported, and the caller decides on a fallback.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "util/result.hpp"

namespace npkit {

// A positive rational number num/den, kept reduced.
struct Rational {
  std::uint64_t num = 0;
  std::uint64_t den = 1;
  friend bool operator==(const Rational&, const Rational&) = default;
};

// Parses "1755000", " 1755000\n", "100000.000000" (no sign, no exponent) into a reduced
// rational. `what` names the value in the error message.
Result<Rational> parse_decimal_rational(std::string_view text, const std::string& what);

std::string format_rational(const Rational& r);

// num/den divided by their greatest common divisor (unchanged when both are 0).
Rational reduced(std::uint64_t num, std::uint64_t den);

struct RankClocks {
  Rational cpu_tick_seconds{1, 1000000000};  // seconds per CPU timestamp tick (num/den files)
  std::optional<Rational> gpu_khz;           // GPU counter rate in kHz
  std::string cpu_source = "default 1/1000000000 s (no clock files)";
  std::string gpu_source = "missing";
};

// Converts CPU timestamp ticks to nanoseconds (exact, rounded to nearest).
std::int64_t cpu_ticks_to_ns(std::uint64_t ticks, const Rational& tick_seconds);

// Converts a signed GPU tick delta to nanoseconds at `khz` (exact, rounded to nearest).
std::int64_t gpu_ticks_to_ns(std::int64_t ticks, const Rational& khz);

}  // namespace npkit
