#include "analysis/sync/phase_imbalance.hpp"

#include <algorithm>
#include <cmath>

#include "util/quantiles.hpp"

namespace npkit {

std::vector<PhaseImbalance> phase_imbalance(const std::vector<RankInfo>& ranks) {
  std::vector<std::string> names;
  double reference = 0;
  for (const auto& r : ranks) {
    reference += static_cast<double>(r.reference_ns);
    for (const auto& p : r.phases) {
      if (std::find(names.begin(), names.end(), p.phase) == names.end()) names.push_back(p.phase);
    }
  }
  std::vector<PhaseImbalance> out;
  for (const auto& name : names) {
    PhaseImbalance b;
    b.phase = name;
    b.ranks = ranks.size();
    std::vector<double> values;
    double sum = 0;
    b.min_ns = INT64_MAX;
    b.max_ns = INT64_MIN;
    for (const auto& r : ranks) {
      std::int64_t ns = 0;
      for (const auto& p : r.phases) {
        if (p.phase == name) ns += p.ns;
      }
      values.push_back(static_cast<double>(ns));
      sum += static_cast<double>(ns);
      b.min_ns = std::min(b.min_ns, ns);
      if (ns > b.max_ns) {
        b.max_ns = ns;
        b.max_rank = r.rank;
      }
    }
    std::sort(values.begin(), values.end());
    b.median_ns = sorted_quantile(values, 0.5);
    b.max_over_median = b.median_ns > 0 ? static_cast<double>(b.max_ns) / b.median_ns : 0.0;
    const double mean = sum / static_cast<double>(values.size());
    double var = 0;
    for (double v : values) var += (v - mean) * (v - mean);
    var /= static_cast<double>(values.size());
    b.cv = mean > 0 ? std::sqrt(var) / mean : 0.0;
    b.share = reference > 0 ? sum / reference : 0.0;
    out.push_back(b);
  }
  return out;
}

}  // namespace npkit
