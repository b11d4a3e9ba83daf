#include "util/time_text.hpp"

#include <fmt/format.h>

#include "util/utc_time.hpp"

namespace npkit {

std::string TimeScale::operator()(double ns) const {
  return fmt::format("{:.3f}", ns / ns_per_unit);
}

TimeScale time_scale_for(std::int64_t max_ns) {
  if (max_ns >= 10000000000) return TimeScale{1e9, "s"};
  if (max_ns >= 10000000) return TimeScale{1e6, "ms"};
  return TimeScale{1e3, "us"};
}

std::string describe_time(std::int64_t ns) {
  constexpr std::int64_t kYear2001 = 978307200LL * 1000000000LL;
  if (ns < kYear2001)
    return fmt::format("{:.6f} s (steady clock, boot-relative)", static_cast<double>(ns) / 1e9);
  return fmt::format("{}.{:09} UTC", utc_seconds(ns), ns % 1000000000);
}

}  // namespace npkit
