// analysis/diagnose/latency_model.hpp — time = α + S/β fitted on a run's own sizes, so that a size
// is judged against what its algorithm and protocol do at that size rather than against the
// large sizes' bus bandwidth. Contract:
// - fit_latency_model() takes (S in bytes, time in ns) points of one (collective, algo, proto)
//   and fits time = alpha + ns_per_byte · S by least squares on relative errors (weights 1/time²,
//   so small and large sizes count alike). A negative alpha is clamped to 0 (and the slope refit);
//   no model (nullopt) with fewer than two distinct sizes or without a positive slope.
// - bandwidth_bound(S): the transfer term is at least the fixed cost (S/β ≥ α).
// - text(): "12.300 us + S / 250.00 GB/s".
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace npkit {

struct LatencyModel {
  double alpha_ns = 0;
  double ns_per_byte = 0;
  std::size_t points = 0;

  double time_ns(double bytes) const { return alpha_ns + ns_per_byte * bytes; }
  bool bandwidth_bound(double bytes) const { return ns_per_byte * bytes >= alpha_ns; }
  std::string text() const;
};

std::optional<LatencyModel> fit_latency_model(
    const std::vector<std::pair<double, double>>& bytes_and_ns);

}  // namespace npkit
