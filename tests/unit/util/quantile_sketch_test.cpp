// QuantileSketch: exact while small, within 1/128 beyond, order-independent merges. Expected
// values come from sorting the same numbers here (R type-7 quantiles) or by hand.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "util/quantile_sketch.hpp"

using npkit::QuantileSketch;

namespace {

double type7(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  const double h = (static_cast<double>(v.size()) - 1) * p;
  const auto lo = static_cast<std::size_t>(h);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (h - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

}  // namespace

TEST_CASE("sketch: exact quantiles while small", "[util][sketch]") {
  QuantileSketch s;
  for (int i = 10; i >= 1; --i) s.add(i);
  const auto q = s.summary();
  CHECK(s.exact());
  CHECK(q.count == 10);
  CHECK(q.min == 1);
  CHECK(q.max == 10);
  CHECK(q.p10 == Approx(1.9));  // h = 0.9: 1 + 0.9 * (2 - 1)
  CHECK(q.p50 == Approx(5.5));  // h = 4.5: 5 + 0.5
  CHECK(q.p90 == Approx(9.1));  // h = 8.1: 9 + 0.1
  CHECK(q.mean == Approx(5.5));
}

TEST_CASE("sketch: beyond the exact limit quantiles stay within 1/128", "[util][sketch]") {
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> dist(10.0, 1.5);  // durations spanning decades
  std::vector<double> values;
  QuantileSketch s;
  for (int i = 0; i < 100000; ++i) {
    const double v = std::round(dist(rng));
    values.push_back(v);
    s.add(v);
  }
  CHECK_FALSE(s.exact());
  const auto q = s.summary();
  CHECK(q.count == values.size());
  CHECK(q.min == *std::min_element(values.begin(), values.end()));
  CHECK(q.max == *std::max_element(values.begin(), values.end()));
  double sum = 0;
  for (double v : values) sum += v;
  CHECK(q.mean == Approx(sum / static_cast<double>(values.size())).epsilon(1e-12));
  for (const auto& [p, got] : {std::pair{0.10, q.p10}, {0.50, q.p50}, {0.90, q.p90}}) {
    INFO("p = " << p);
    CHECK(got == Approx(type7(values, p)).epsilon(1.0 / 128));
  }
}

TEST_CASE("sketch: the same values in any order and any merge tree give the same summary",
          "[util][sketch]") {
  std::vector<double> values;
  for (int i = 0; i < 20000; ++i) values.push_back(0.5 + (i * 7919 % 10007) * 0.37);
  QuantileSketch serial;
  for (double v : values) serial.add(v);
  std::vector<double> shuffled = values;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(3));
  QuantileSketch parts[3];
  for (std::size_t i = 0; i < shuffled.size(); ++i) parts[i * 3 / shuffled.size()].add(shuffled[i]);
  QuantileSketch merged;
  merged.merge(parts[2]);
  merged.merge(parts[0]);
  merged.merge(parts[1]);
  const auto a = serial.summary();
  const auto b = merged.summary();
  CHECK(a.count == b.count);
  CHECK(a.min == b.min);
  CHECK(a.max == b.max);
  CHECK(a.mean == b.mean);
  CHECK(a.p10 == b.p10);
  CHECK(a.p50 == b.p50);
  CHECK(a.p90 == b.p90);
}

TEST_CASE("sketch: zero and negative values share the lowest bucket", "[util][sketch]") {
  QuantileSketch s;
  for (int i = 0; i < 5000; ++i) s.add(0);
  for (int i = 0; i < 5000; ++i) s.add(100);
  s.add(-3);
  const auto q = s.summary();
  CHECK(q.min == -3);
  CHECK(q.p10 == -3);  // the bucket of non-positive values reads as the minimum
  CHECK(q.p90 == Approx(100).epsilon(1.0 / 128));
}
