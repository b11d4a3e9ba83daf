// util/time_text.hpp — times and durations as table cells and lines.
// Contract: TimeScale prints durations with three decimals in s when the largest value shown
// (time_scale_for) is at least 10 s, in ms from 10 ms, else in us. describe_time: epoch nanoseconds
// after 2001 as "YYYY-MM-DD HH:MM:SS.nnnnnnnnn UTC", smaller values as seconds of a boot-relative
// steady clock.
#pragma once

#include <cstdint>
#include <string>

namespace npkit {

struct TimeScale {
  double ns_per_unit = 1e6;
  const char* unit = "ms";
  std::string operator()(double ns) const;
  std::string header(const std::string& what) const { return what + " (" + unit + ")"; }
};
TimeScale time_scale_for(std::int64_t max_ns);

std::string describe_time(std::int64_t ns);

}  // namespace npkit
