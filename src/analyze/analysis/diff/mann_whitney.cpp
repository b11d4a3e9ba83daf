#include "analysis/diff/mann_whitney.hpp"

#include <algorithm>
#include <cmath>

namespace npkit {

RankSumTest mann_whitney(const std::vector<WeightedValue>& a, const std::vector<WeightedValue>& b) {
  double na = 0;
  double nb = 0;
  for (const auto& p : a) na += static_cast<double>(p.weight);
  for (const auto& p : b) nb += static_cast<double>(p.weight);
  RankSumTest t;
  if (na == 0 || nb == 0) return t;
  const double n = na + nb;
  double rank_sum_a = 0;
  double ties = 0;   // Σ (t³ − t) over tied groups
  double below = 0;  // values already ranked
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() || j < b.size()) {
    double value = 0;
    if (j >= b.size() || (i < a.size() && a[i].value <= b[j].value)) {
      value = a[i].value;
    } else {
      value = b[j].value;
    }
    double wa = 0;
    double wb = 0;
    while (i < a.size() && a[i].value == value) wa += static_cast<double>(a[i++].weight);
    while (j < b.size() && b[j].value == value) wb += static_cast<double>(b[j++].weight);
    const double group = wa + wb;
    rank_sum_a += wa * (below + (group + 1) / 2);
    ties += group * group * group - group;
    below += group;
  }
  t.u = rank_sum_a - na * (na + 1) / 2;
  const double mean = na * nb / 2;
  const double variance = na * nb / 12 * ((n + 1) - ties / (n * (n - 1)));
  if (!(variance > 0)) return t;
  const double deviation = t.u - mean;
  const double corrected =
      deviation > 0 ? std::max(deviation - 0.5, 0.0) : std::min(deviation + 0.5, 0.0);
  t.z = corrected / std::sqrt(variance);
  t.p_value = std::erfc(std::fabs(t.z) / std::sqrt(2.0));
  return t;
}

}  // namespace npkit
