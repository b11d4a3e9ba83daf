#include "util/readable_duration.hpp"

#include <fmt/format.h>

namespace npkit {

std::string readable_duration(std::int64_t ns) {
  const double v = static_cast<double>(ns);
  if (ns >= 1'000'000'000) return fmt::format("{:.3f} s", v / 1e9);
  if (ns >= 1'000'000) return fmt::format("{:.3f} ms", v / 1e6);
  return fmt::format("{:.3f} us", v / 1e3);
}

}  // namespace npkit
