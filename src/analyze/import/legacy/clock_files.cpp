#include "import/legacy/clock_files.hpp"

#include <numeric>

namespace npkit {
namespace {

constexpr std::uint64_t kMaxMantissa = 1000000000000000000ULL;  // 1e18

std::int64_t round_div(__int128 a, __int128 b) {
  if (b == 0) return a < 0 ? INT64_MIN : INT64_MAX;
  const bool neg = (a < 0) != (b < 0);
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  __int128 q = (a + b / 2) / b;
  if (neg) q = -q;
  if (q > INT64_MAX) return INT64_MAX;
  if (q < INT64_MIN) return INT64_MIN;
  return static_cast<std::int64_t>(q);
}

}  // namespace

Rational reduced(std::uint64_t num, std::uint64_t den) {
  const std::uint64_t g = std::gcd(num, den);
  return g == 0 ? Rational{num, den} : Rational{num / g, den / g};
}

Result<Rational> parse_decimal_rational(std::string_view text, const std::string& what) {
  std::string_view s = text;
  while (!s.empty() &&
         (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' ||
                        s.back() == '\r' || s.back() == '\0'))
    s.remove_suffix(1);
  const auto bad = [&](const char* why) {
    std::string shown(s.substr(0, 40));
    return Error{what + ": '" + shown + "' " + why};
  };
  if (s.empty()) return bad("is empty, expected a positive number");
  std::uint64_t num = 0;
  std::uint64_t den = 1;
  bool seen_dot = false;
  bool any_digit = false;
  for (char c : s) {
    if (c == '.' && !seen_dot) {
      seen_dot = true;
      continue;
    }
    if (c < '0' || c > '9') return bad("is not a decimal number");
    any_digit = true;
    if (num > kMaxMantissa / 10) {
      if (seen_dot) break;  // drop excess fractional digits
      return bad("is too large");
    }
    num = num * 10 + static_cast<std::uint64_t>(c - '0');
    if (seen_dot) {
      if (den > kMaxMantissa / 10) return bad("has too many digits");
      den *= 10;
    }
  }
  if (!any_digit) return bad("is not a decimal number");
  if (num == 0) return bad("is zero, expected a positive number");
  return reduced(num, den);
}

std::string format_rational(const Rational& r) {
  if (r.den == 1) return std::to_string(r.num);
  return std::to_string(r.num) + "/" + std::to_string(r.den);
}

// a * b * c / d rounded, saturating at the int64 range when the product cannot be formed.
static std::int64_t scale(__int128 a, std::uint64_t b, std::uint64_t c, std::uint64_t d) {
  __int128 ab = 0;
  __int128 abc = 0;
  if (__builtin_mul_overflow(a, static_cast<__int128>(b), &ab) ||
      __builtin_mul_overflow(ab, static_cast<__int128>(c), &abc)) {
    return a < 0 ? INT64_MIN : INT64_MAX;
  }
  return round_div(abc, static_cast<__int128>(d));
}

std::int64_t cpu_ticks_to_ns(std::uint64_t ticks, const Rational& tick_seconds) {
  // Fast path: a whole number of nanoseconds per tick (1 on Linux) and no overflow.
  const __int128 per_tick = static_cast<__int128>(tick_seconds.num) * 1000000000;
  if (per_tick % tick_seconds.den == 0) {
    const auto factor = static_cast<std::uint64_t>(per_tick / tick_seconds.den);
    std::uint64_t ns = 0;
    if (!__builtin_mul_overflow(ticks, factor, &ns) &&
        ns <= static_cast<std::uint64_t>(INT64_MAX)) {
      return static_cast<std::int64_t>(ns);
    }
  }
  return scale(ticks, tick_seconds.num, 1000000000, tick_seconds.den);
}

std::int64_t gpu_ticks_to_ns(std::int64_t ticks, const Rational& khz) {
  // ns = ticks / (khz * 1e3) * 1e9 = ticks * 1e6 * den / num, rounded to nearest.
  // Fast path in 64-bit arithmetic whenever 2 * ticks * 1e6 * den ± num cannot overflow.
  constexpr std::uint64_t kMaxOperand = std::uint64_t{1} << 40;
  std::int64_t scaled = 0;
  if (khz.den <= kMaxOperand && khz.num <= kMaxOperand &&
      !__builtin_mul_overflow(ticks, static_cast<std::int64_t>(2000000 * khz.den), &scaled) &&
      scaled > INT64_MIN / 2 && scaled < INT64_MAX / 2) {
    const auto num = static_cast<std::int64_t>(khz.num);
    return (scaled < 0 ? scaled - num : scaled + num) / (2 * num);
  }
  return scale(ticks, 1000000, khz.den, khz.num);
}

}  // namespace npkit
