// quantiles.hpp — order statistics of a sample.
// Contract: quantiles use linear interpolation between closest ranks (the "type 7" rule of R
// and NumPy's default): q(p) = x[floor(h)] + (h − floor(h)) · (x[floor(h)+1] − x[floor(h)]),
// h = (n − 1) · p, on the sorted sample. An empty sample gives count 0 and zeros.
#pragma once

#include <cstdint>
#include <vector>

namespace npkit {

struct SampleSummary {
  std::uint64_t count = 0;
  double min = 0;
  double p10 = 0;
  double p50 = 0;
  double p90 = 0;
  double max = 0;
  double mean = 0;
};

// Sorts `values` in place.
SampleSummary summarize(std::vector<double>& values);

// Quantile `p` (0..1) of an already sorted, non-empty sample.
double sorted_quantile(const std::vector<double>& sorted, double p);

}  // namespace npkit
