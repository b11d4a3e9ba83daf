#include "util/readable_duration.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>

namespace npkit {
namespace {

struct Unit {
  double ns;
  const char* name;
};

constexpr std::array<Unit, 4> kUnits{{{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}, {1, "ns"}}};

// Decimals that leave four significant digits of a magnitude in [1, 1000); one at 1000 and above.
int decimals_for(double magnitude) {
  if (magnitude >= 100) return 1;
  if (magnitude >= 10) return 2;
  return 3;
}

}  // namespace

std::string readable_duration(double ns) {
  if (ns == 0 || !std::isfinite(ns)) return ns == 0 ? "0 us" : fmt::format("{} ns", ns);
  const double magnitude = std::fabs(ns);
  for (std::size_t i = 0; i < kUnits.size(); ++i) {
    const Unit& u = kUnits[i];
    const double v = magnitude / u.ns;
    if (v < 1 && i + 1 < kUnits.size()) continue;
    const int d = decimals_for(v);
    const double scale = std::pow(10.0, d);
    // Rounding can reach the next unit's threshold (999.96 us): that unit reads it better.
    if (std::round(v * scale) / scale >= 1000 && i > 0) {
      const Unit& up = kUnits[i - 1];
      const double w = magnitude / up.ns;
      return fmt::format("{:.{}f} {}", std::copysign(w, ns), decimals_for(w), up.name);
    }
    // Nanoseconds are the clocks' resolution: whole ones.
    return fmt::format("{:.{}f} {}", std::copysign(v, ns), u.ns == 1 ? 0 : d, u.name);
  }
  return fmt::format("{:.3f} ns", ns);
}

std::string readable_duration(std::int64_t ns) {
  return readable_duration(static_cast<double>(ns));
}

}  // namespace npkit
