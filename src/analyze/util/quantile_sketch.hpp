// quantile_sketch.hpp — order statistics in bounded memory.
// Contract: exact (the same numbers as summarize() in quantiles.hpp) while it holds at most
// kExactLimit values; beyond that the values move into a log-linear histogram with
// kSubBuckets buckets per power of two, so every quantile is within a relative error of
// 1/kSubBuckets (0.8 %) of an order statistic near it, while count, min, max and mean stay
// exact (the mean to 1e-6 of a unit). Values ≤ 0 share one bucket (quantiles among them read as
// the minimum seen, or 0). Memory is at most kExactLimit doubles or one counter per occupied
// bucket. Sketches merge, and the result does not depend on the order of adds and merges.
#pragma once

#include <cstdint>
#include <vector>

#include "util/quantiles.hpp"

namespace npkit {

class QuantileSketch {
 public:
  static constexpr std::size_t kExactLimit = 4096;
  static constexpr int kSubBuckets = 128;

  void add(double value);
  void merge(const QuantileSketch& other);
  SampleSummary summary() const;
  bool exact() const { return !spilled_; }
  std::uint64_t count() const { return count_; }

 private:
  void spill();
  void add_to_histogram(double value);
  void add_bucket(std::int64_t bucket, std::uint64_t n);
  double quantile_from_histogram(double p) const;

  std::vector<double> values_;
  std::vector<std::uint64_t> histogram_;  // counts of buckets first_bucket_, first_bucket_ + 1, ...
  std::int64_t first_bucket_ = 0;
  std::uint64_t nonpositive_ = 0;
  bool spilled_ = false;
  std::uint64_t count_ = 0;
  double min_ = 0;
  double max_ = 0;
  __int128 fixed_sum_ = 0;  // sum of values in units of 2^-20: exact and order-independent
};

}  // namespace npkit
