#include "util/quantiles.hpp"

#include <algorithm>
#include <cmath>

namespace npkit {

double sorted_quantile(const std::vector<double>& sorted, double p) {
  const double h = static_cast<double>(sorted.size() - 1) * p;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

SampleSummary summarize(std::vector<double>& values) {
  SampleSummary s;
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  s.count = values.size();
  s.min = values.front();
  s.max = values.back();
  s.p10 = sorted_quantile(values, 0.10);
  s.p50 = sorted_quantile(values, 0.50);
  s.p90 = sorted_quantile(values, 0.90);
  double sum = 0;
  for (double v : values) sum += v;
  s.mean = sum / static_cast<double>(values.size());
  return s;
}

}  // namespace npkit
