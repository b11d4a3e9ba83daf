#include "analysis/diagnose/latency_model.hpp"

#include <fmt/format.h>

#include <set>

namespace npkit {

std::string LatencyModel::text() const {
  return fmt::format("{:.3f} us + S / {:.2f} GB/s", alpha_ns / 1e3, 1.0 / ns_per_byte);
}

std::optional<LatencyModel> fit_latency_model(
    const std::vector<std::pair<double, double>>& bytes_and_ns) {
  double w = 0, x = 0, y = 0, xx = 0, xy = 0;
  std::set<double> sizes;
  for (const auto& [bytes, ns] : bytes_and_ns) {
    if (!(bytes > 0) || !(ns > 0)) continue;
    const double weight = 1.0 / (ns * ns);
    w += weight;
    x += weight * bytes;
    y += weight * ns;
    xx += weight * bytes * bytes;
    xy += weight * bytes * ns;
    sizes.insert(bytes);
  }
  if (sizes.size() < 2) return std::nullopt;
  LatencyModel m;
  m.points = sizes.size();
  m.ns_per_byte = (w * xy - x * y) / (w * xx - x * x);
  m.alpha_ns = (y - m.ns_per_byte * x) / w;
  if (m.alpha_ns < 0) {
    m.alpha_ns = 0;
    m.ns_per_byte = xy / xx;
  }
  if (!(m.ns_per_byte > 0)) return std::nullopt;
  return m;
}

}  // namespace npkit
