#include "run/summary/duration_sample.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "run/summary/saturating_count.hpp"

namespace npkit {
namespace {

constexpr int kSubBucketBits = 7;  // 128 buckets per power of two
constexpr std::int64_t kLinearLimit = std::int64_t{1} << (kSubBucketBits + 1);  // 256

}  // namespace

std::uint32_t DurationSample::bucket_of(std::int64_t ns) {
  if (ns < kLinearLimit) return static_cast<std::uint32_t>(std::max<std::int64_t>(ns, 0));
  const auto v = static_cast<std::uint64_t>(ns);
  const int exponent = 63 - std::countl_zero(v);  // ≥ 8
  const int shift = exponent - kSubBucketBits;    // ≥ 1
  const std::uint64_t sub = v >> shift;           // 128..255
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(shift) << kSubBucketBits) + sub);
}

std::int64_t DurationSample::bucket_low(std::uint32_t bucket) {
  if (bucket < kLinearLimit) return bucket;
  const std::uint32_t shift = (bucket >> kSubBucketBits) - 1;
  const std::uint64_t sub = bucket - (shift << kSubBucketBits);
  return static_cast<std::int64_t>(sub << shift);
}

std::int64_t DurationSample::bucket_width(std::uint32_t bucket) {
  if (bucket < kLinearLimit) return 1;
  return std::int64_t{1} << ((bucket >> kSubBucketBits) - 1);
}

void DurationSample::add(std::int64_t ns) {
  ns = std::max<std::int64_t>(ns, 0);
  if (count_ == 0) {
    min_ = max_ = ns;
  } else {
    min_ = std::min(min_, ns);
    max_ = std::max(max_, ns);
  }
  ++count_;
  sum_ = sat_add_count(sum_, static_cast<std::uint64_t>(ns));
  if (spilled_) {
    ++buckets_[bucket_of(ns)];
    return;
  }
  values_.insert(std::upper_bound(values_.begin(), values_.end(), ns), ns);
  if (values_.size() > kExactCap) spill();
}

void DurationSample::spill() {
  for (const std::int64_t v : values_) ++buckets_[bucket_of(v)];
  values_.clear();
  values_.shrink_to_fit();
  spilled_ = true;
}

void DurationSample::merge(const DurationSample& other) {
  if (other.count_ == 0) return;
  if (count_ == 0) {
    *this = other;
    return;
  }
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
  count_ += other.count_;
  sum_ = sat_add_count(sum_, other.sum_);
  if (!spilled_ && !other.spilled_ && count_ <= kExactCap) {
    std::vector<std::int64_t> merged;
    merged.reserve(count_);
    std::merge(values_.begin(), values_.end(), other.values_.begin(), other.values_.end(),
               std::back_inserter(merged));
    values_ = std::move(merged);
    return;
  }
  if (!spilled_) spill();
  if (other.spilled_) {
    for (const auto& [b, n] : other.buckets_) buckets_[b] += n;
  } else {
    for (const std::int64_t v : other.values_) ++buckets_[bucket_of(v)];
  }
}

DurationSample DurationSample::from_values(std::vector<std::int64_t> values) {
  DurationSample s;
  for (const std::int64_t v : values) s.add(v);
  return s;
}

DurationSample DurationSample::from_histogram(std::map<std::uint32_t, std::uint64_t> buckets,
                                              std::int64_t min, std::int64_t max,
                                              std::uint64_t sum) {
  DurationSample s;
  s.spilled_ = true;
  for (const auto& [b, n] : buckets) s.count_ += n;
  s.buckets_ = std::move(buckets);
  s.min_ = min;
  s.max_ = max;
  s.sum_ = sum;
  return s;
}

double DurationSample::mean() const {
  return count_ == 0 ? 0.0 : static_cast<double>(sum_) / static_cast<double>(count_);
}

double DurationSample::order_statistic(std::uint64_t k) const {
  if (!spilled_) return static_cast<double>(values_[k]);
  if (k == 0) return static_cast<double>(min_);
  if (k + 1 == count_) return static_cast<double>(max_);
  std::uint64_t seen = 0;
  for (const auto& [b, n] : buckets_) {
    seen += n;
    if (k < seen) {
      const double mid =
          static_cast<double>(bucket_low(b)) + static_cast<double>(bucket_width(b) - 1) / 2.0;
      return std::clamp(mid, static_cast<double>(min_), static_cast<double>(max_));
    }
  }
  return static_cast<double>(max_);
}

double DurationSample::quantile(double p) const {
  if (count_ == 0) return 0.0;
  const double h = static_cast<double>(count_ - 1) * std::clamp(p, 0.0, 1.0);
  const auto lo = static_cast<std::uint64_t>(std::floor(h));
  const std::uint64_t hi = std::min(lo + 1, count_ - 1);
  const double a = order_statistic(lo);
  const double b = hi == lo ? a : order_statistic(hi);
  return a + (h - static_cast<double>(lo)) * (b - a);
}

std::vector<WeightedValue> DurationSample::points() const {
  std::vector<WeightedValue> out;
  if (!spilled_) {
    for (const std::int64_t v : values_) {
      if (!out.empty() && out.back().value == static_cast<double>(v)) {
        ++out.back().weight;
      } else {
        out.push_back({static_cast<double>(v), 1});
      }
    }
    return out;
  }
  for (const auto& [b, n] : buckets_) {
    out.push_back(
        {static_cast<double>(bucket_low(b)) + static_cast<double>(bucket_width(b) - 1) / 2.0, n});
  }
  return out;
}

}  // namespace npkit
