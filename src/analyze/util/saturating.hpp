// saturating.hpp — int64 addition and subtraction that clamp instead of overflowing.
// Contract: the exact result when it fits, else INT64_MAX or INT64_MIN. Used where times come
// from untrusted dumps (garbage timestamps must not be undefined behaviour).
#pragma once

#include <cstdint>
#include <limits>

namespace npkit {

inline std::int64_t sat_add(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (!__builtin_add_overflow(a, b, &r)) return r;
  return b > 0 ? std::numeric_limits<std::int64_t>::max()
               : std::numeric_limits<std::int64_t>::min();
}

inline std::int64_t sat_sub(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (!__builtin_sub_overflow(a, b, &r)) return r;
  return b < 0 ? std::numeric_limits<std::int64_t>::max()
               : std::numeric_limits<std::int64_t>::min();
}

}  // namespace npkit
