#include "import/chrome_json/json_number.hpp"

#include <limits>

namespace npkit {
namespace {

using u128 = unsigned __int128;

constexpr int kMaxDigits = 38;  // 10^38 < 2^128

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

u128 pow10(int k) {
  u128 p = 1;
  for (int i = 0; i < k; ++i) p *= 10;
  return p;
}

// The magnitude as an integer, or nullopt when it does not fit `limit`.
std::optional<u128> scaled_magnitude(u128 mantissa, int exp10, u128 limit) {
  if (mantissa == 0) return u128{0};
  if (exp10 >= 0) {
    if (exp10 > kMaxDigits) return std::nullopt;
    u128 v = mantissa;
    for (int i = 0; i < exp10; ++i) {
      if (v > limit / 10) return std::nullopt;
      v *= 10;
    }
    if (v > limit) return std::nullopt;
    return v;
  }
  if (-exp10 > kMaxDigits) return u128{0};  // mantissa < 10^38 ≤ half the divisor
  const u128 divisor = pow10(-exp10);
  u128 q = mantissa / divisor;
  const u128 r = mantissa % divisor;
  if (r >= divisor - r) ++q;  // half away from zero (later digits can only push it up)
  if (q > limit) return std::nullopt;
  return q;
}

struct Decimal {
  bool negative = false;
  u128 mantissa = 0;
  int exp10 = 0;
  bool integral = true;  // no fraction and no exponent
};

std::optional<Decimal> parse_decimal(std::string_view s) {
  Decimal d;
  std::size_t i = 0;
  if (i < s.size() && s[i] == '-') {
    d.negative = true;
    ++i;
  }
  int used = 0;
  const auto take = [&](char c, bool fraction) {
    if (used == 0 && c == '0') {
      if (fraction) --d.exp10;
      return;
    }
    if (used < kMaxDigits) {
      d.mantissa = d.mantissa * 10 + static_cast<unsigned>(c - '0');
      ++used;
      if (fraction) --d.exp10;
    } else if (!fraction) {
      ++d.exp10;  // a dropped integer digit still scales the value
    }
  };
  const std::size_t int_begin = i;
  while (i < s.size() && is_digit(s[i])) take(s[i++], false);
  const std::size_t int_digits = i - int_begin;
  if (int_digits == 0) return std::nullopt;
  if (int_digits > 1 && s[int_begin] == '0') return std::nullopt;  // JSON: no leading zeros
  if (i < s.size() && s[i] == '.') {
    d.integral = false;
    ++i;
    const std::size_t frac_begin = i;
    while (i < s.size() && is_digit(s[i])) take(s[i++], true);
    if (i == frac_begin) return std::nullopt;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    d.integral = false;
    ++i;
    bool negative_exp = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative_exp = s[i++] == '-';
    const std::size_t exp_begin = i;
    int exp = 0;
    while (i < s.size() && is_digit(s[i])) {
      if (exp < 100000) exp = exp * 10 + (s[i] - '0');
      ++i;
    }
    if (i == exp_begin) return std::nullopt;
    d.exp10 += negative_exp ? -exp : exp;
  }
  if (i != s.size()) return std::nullopt;
  return d;
}

std::optional<std::int64_t> to_int64(const Decimal& d, int exp10) {
  constexpr u128 kMax = static_cast<u128>(std::numeric_limits<std::int64_t>::max());
  const auto mag = scaled_magnitude(d.mantissa, exp10, d.negative ? kMax + 1 : kMax);
  if (!mag) return std::nullopt;
  if (!d.negative) return static_cast<std::int64_t>(*mag);
  if (*mag == kMax + 1) return std::numeric_limits<std::int64_t>::min();
  return -static_cast<std::int64_t>(*mag);
}

}  // namespace

std::optional<std::int64_t> decimal_to_scaled_int(std::string_view text, int scale) {
  const auto d = parse_decimal(text);
  if (!d) return std::nullopt;
  return to_int64(*d, d->exp10 + scale);
}

std::optional<std::int64_t> parse_json_int(std::string_view text) {
  const auto d = parse_decimal(text);
  if (!d || !d->integral) return std::nullopt;
  return to_int64(*d, d->exp10);
}

std::optional<std::uint64_t> parse_json_uint(std::string_view text) {
  const auto d = parse_decimal(text);
  if (!d || !d->integral || d->negative) return std::nullopt;
  const auto mag =
      scaled_magnitude(d->mantissa, d->exp10, std::numeric_limits<std::uint64_t>::max());
  if (!mag) return std::nullopt;
  return static_cast<std::uint64_t>(*mag);
}

}  // namespace npkit
