#include "util/utc_time.hpp"

#include <ctime>

namespace npkit {

std::string utc_seconds(std::int64_t ns) {
  const std::time_t secs = static_cast<std::time_t>(ns / 1000000000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  return buf;
}

}  // namespace npkit
