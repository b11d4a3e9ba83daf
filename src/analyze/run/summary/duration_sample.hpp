// run/summary/duration_sample.hpp — the per-iteration durations of one summary row, mergeable.
// Contract:
// - Holds every value (integer ns, negatives stored as 0) while there are at most kExactCap of
//   them; beyond that all values live in a log-linear histogram: values below 256 ns in buckets
//   of 1 ns, larger ones in 128 buckets per power of two (a bucket [lo, lo + w) has w = lo / 128
//   at most), each read back as its midpoint, so a quantile is within 1/256 (0.4 %) of an order
//   statistic next to it. count, min, max and the sum (hence the mean) stay exact.
// - merge() is associative and commutative, and the result depends only on the multiset of
//   values added: exact while the total count is at most kExactCap, else the histogram of all.
// - Quantiles follow util/quantiles.hpp (type 7: linear between closest ranks); an empty sample
//   reads 0.
// - points() lists the distinct values (exact) or bucket midpoints (histogram) in increasing
//   order with their multiplicities: what the rank tests of diff/ read.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

namespace npkit {

struct WeightedValue {
  double value = 0;
  std::uint64_t weight = 0;
};

class DurationSample {
 public:
  static constexpr std::size_t kExactCap = 1024;

  // The histogram bucket holding `ns` (≥ 0) and that bucket's lowest value and width.
  static std::uint32_t bucket_of(std::int64_t ns);
  static std::int64_t bucket_low(std::uint32_t bucket);
  static std::int64_t bucket_width(std::uint32_t bucket);

  void add(std::int64_t ns);
  void merge(const DurationSample& other);

  // Rebuilds a sample as written out: `values` (any order) when exact, else `buckets` (by
  // bucket index), with the exact count/min/max/sum. The reader checks consistency.
  static DurationSample from_values(std::vector<std::int64_t> values);
  static DurationSample from_histogram(std::map<std::uint32_t, std::uint64_t> buckets,
                                       std::int64_t min, std::int64_t max, std::uint64_t sum);

  bool exact() const { return !spilled_; }
  bool empty() const { return count_ == 0; }
  std::uint64_t count() const { return count_; }
  std::int64_t min() const { return min_; }
  std::int64_t max() const { return max_; }
  std::uint64_t sum() const { return sum_; }  // saturates at 2^64 − 1
  double mean() const;
  double quantile(double p) const;
  double median() const { return quantile(0.5); }

  const std::vector<std::int64_t>& values() const { return values_; }  // sorted; exact only
  const std::map<std::uint32_t, std::uint64_t>& buckets() const { return buckets_; }
  std::vector<WeightedValue> points() const;

  friend bool operator==(const DurationSample&, const DurationSample&) = default;

 private:
  void spill();
  double order_statistic(std::uint64_t k) const;  // k-th smallest, from 0

  std::vector<std::int64_t> values_;                // sorted, while exact
  std::map<std::uint32_t, std::uint64_t> buckets_;  // bucket -> count, once spilled
  bool spilled_ = false;
  std::uint64_t count_ = 0;
  std::int64_t min_ = 0;
  std::int64_t max_ = 0;
  std::uint64_t sum_ = 0;
};

}  // namespace npkit
