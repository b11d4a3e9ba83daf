#include "util/quantile_sketch.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace npkit {
namespace {

// For positive doubles the bit pattern grows with the value: its top bits (exponent and the
// first 7 mantissa bits) number log-linear buckets, 128 per power of two.
constexpr int kDroppedBits = 52 - 7;
static_assert((1 << 7) == QuantileSketch::kSubBuckets);

std::int64_t bucket_of(double v) {
  return static_cast<std::int64_t>(std::bit_cast<std::uint64_t>(v) >> kDroppedBits);
}

// The middle of a bucket's value range.
double bucket_value(std::int64_t bucket) {
  const auto low = static_cast<std::uint64_t>(bucket) << kDroppedBits;
  return std::bit_cast<double>(low | (std::uint64_t{1} << (kDroppedBits - 1)));
}

constexpr int kFixedBits = 20;
constexpr long double kFixedLimit = 1e30L;

__int128 to_fixed(double v) {
  const double scaled = v * (1 << kFixedBits);  // exact: a power of two
  if (std::fabs(scaled) < 9.0e18) return static_cast<std::int64_t>(scaled);
  if (std::isnan(v)) return 0;
  return static_cast<__int128>(
      std::clamp(static_cast<long double>(scaled), -kFixedLimit, kFixedLimit));
}

}  // namespace

void QuantileSketch::add(double value) {
  if (count_ == 0) {
    min_ = max_ = value;
  } else {
    min_ = std::min(min_, value);
    max_ = std::max(max_, value);
  }
  ++count_;
  fixed_sum_ += to_fixed(value);
  if (!spilled_) {
    values_.push_back(value);
    if (values_.size() > kExactLimit) spill();
    return;
  }
  add_to_histogram(value);
}

void QuantileSketch::add_to_histogram(double value) {
  if (!(value > 0)) {
    ++nonpositive_;
    return;
  }
  add_bucket(bucket_of(value), 1);
}

void QuantileSketch::add_bucket(std::int64_t bucket, std::uint64_t n) {
  if (histogram_.empty()) {
    first_bucket_ = bucket;
    histogram_.assign(1, 0);
  } else if (bucket < first_bucket_) {
    histogram_.insert(histogram_.begin(), static_cast<std::size_t>(first_bucket_ - bucket), 0);
    first_bucket_ = bucket;
  } else if (bucket - first_bucket_ >= static_cast<std::int64_t>(histogram_.size())) {
    histogram_.resize(static_cast<std::size_t>(bucket - first_bucket_ + 1), 0);
  }
  histogram_[static_cast<std::size_t>(bucket - first_bucket_)] += n;
}

void QuantileSketch::spill() {
  spilled_ = true;
  for (double v : values_) add_to_histogram(v);
  values_.clear();
  values_.shrink_to_fit();
}

void QuantileSketch::merge(const QuantileSketch& other) {
  if (other.count_ == 0) return;
  if (count_ == 0) {
    min_ = other.min_;
    max_ = other.max_;
  } else {
    min_ = std::min(min_, other.min_);
    max_ = std::max(max_, other.max_);
  }
  count_ += other.count_;
  fixed_sum_ += other.fixed_sum_;
  if (!spilled_ && !other.spilled_ && values_.size() + other.values_.size() <= kExactLimit) {
    values_.insert(values_.end(), other.values_.begin(), other.values_.end());
    return;
  }
  if (!spilled_) spill();
  for (double v : other.values_) add_to_histogram(v);
  for (std::size_t i = 0; i < other.histogram_.size(); ++i) {
    if (other.histogram_[i] != 0)
      add_bucket(other.first_bucket_ + static_cast<std::int64_t>(i), other.histogram_[i]);
  }
  nonpositive_ += other.nonpositive_;
}

double QuantileSketch::quantile_from_histogram(double p) const {
  // The order statistic of rank round((n − 1) · p), counted from the smallest bucket up.
  const auto rank = static_cast<std::uint64_t>(std::llround(static_cast<double>(count_ - 1) * p));
  if (rank < nonpositive_) return std::min(min_, 0.0);
  std::uint64_t seen = nonpositive_;
  for (std::size_t i = 0; i < histogram_.size(); ++i) {
    seen += histogram_[i];
    if (rank < seen) {
      return std::clamp(bucket_value(first_bucket_ + static_cast<std::int64_t>(i)), min_, max_);
    }
  }
  return max_;
}

SampleSummary QuantileSketch::summary() const {
  if (!spilled_) {
    std::vector<double> copy = values_;
    return summarize(copy);
  }
  SampleSummary s;
  s.count = count_;
  s.min = min_;
  s.max = max_;
  s.mean = static_cast<double>(std::ldexp(static_cast<long double>(fixed_sum_), -kFixedBits) /
                               static_cast<long double>(count_));
  s.p10 = quantile_from_histogram(0.10);
  s.p50 = quantile_from_histogram(0.50);
  s.p90 = quantile_from_histogram(0.90);
  return s;
}

}  // namespace npkit
