// analysis/sync/phase_imbalance.hpp — how unevenly the ranks spend time in each phase.
// Contract: per phase name present on any rank (in order of first appearance over ranks), over
// every rank of the input (a rank without the phase counts 0): min, median, max of the per-rank
// totals, the rank with the max (lowest on a tie), max / median (0 when the median is 0), the
// coefficient of variation (population standard deviation / mean; 0 when the mean is 0), and the
// phase's share of the summed reference time. Ranks without phases give nothing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "run/cross_rank_input.hpp"

namespace npkit {

struct PhaseImbalance {
  std::string phase;
  std::size_t ranks = 0;
  std::int64_t min_ns = 0;
  double median_ns = 0;
  std::int64_t max_ns = 0;
  std::int32_t max_rank = 0;
  double max_over_median = 0;
  double cv = 0;
  double share = 0;  // of the summed reference time
};

std::vector<PhaseImbalance> phase_imbalance(const std::vector<RankInfo>& ranks);

}  // namespace npkit
