// run/summary/saturating_count.hpp — uint64 addition that clamps at 2^64 − 1 instead of wrapping.
// Contract: the exact sum when it fits, else UINT64_MAX; summaries add counts from untrusted
// files, so a hostile count must not wrap around.
#pragma once

#include <cstdint>
#include <limits>

namespace npkit {

inline std::uint64_t sat_add_count(std::uint64_t a, std::uint64_t b) {
  const std::uint64_t s = a + b;
  return s < a ? std::numeric_limits<std::uint64_t>::max() : s;
}

}  // namespace npkit
