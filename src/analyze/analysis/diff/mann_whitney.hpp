// analysis/diff/mann_whitney.hpp — the Mann–Whitney U (Wilcoxon rank-sum) test over weighted
// samples. Contract: `a` and `b` are points in increasing value order with multiplicities (tied
// values share their mid-rank). U counts the pairs (x from a, y from b) with x > y, plus half the
// ties. The two-sided p-value uses the normal approximation with the tie correction of the variance
// and a continuity correction of 0.5; it is 1 when either side is empty or every value ties
// (zero variance). Callers require a minimum count per side (sample_comparison.hpp).
#pragma once

#include <vector>

#include "run/summary/duration_sample.hpp"

namespace npkit {

struct RankSumTest {
  double u = 0;        // U of `a`
  double z = 0;        // standardised, continuity-corrected
  double p_value = 1;  // two-sided
};

RankSumTest mann_whitney(const std::vector<WeightedValue>& a, const std::vector<WeightedValue>& b);

}  // namespace npkit
