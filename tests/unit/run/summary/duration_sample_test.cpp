// DurationSample: exact type-7 quantiles while small, buckets within 1/256 beyond the cap,
// merges that depend only on the values. Expected values are computed by hand or by sorting the
// same numbers here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "run/summary/duration_sample.hpp"

using npkit::DurationSample;

namespace {

double type7(std::vector<std::int64_t> v, double p) {
  std::sort(v.begin(), v.end());
  const double h = (static_cast<double>(v.size()) - 1) * p;
  const auto lo = static_cast<std::size_t>(h);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return static_cast<double>(v[lo]) +
         (h - static_cast<double>(lo)) * static_cast<double>(v[hi] - v[lo]);
}

std::vector<std::int64_t> random_values(std::mt19937_64& rng, std::size_t n) {
  std::lognormal_distribution<double> d(11.0, 0.6);  // ~60 µs, a realistic spread
  std::vector<std::int64_t> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(static_cast<std::int64_t>(d(rng)));
  return v;
}

DurationSample of(const std::vector<std::int64_t>& v, std::size_t from, std::size_t to) {
  DurationSample s;
  for (std::size_t i = from; i < to; ++i) s.add(v[i]);
  return s;
}

}  // namespace

TEST_CASE("duration sample: exact quantiles and moments while small", "[summary][sample]") {
  DurationSample s;
  for (const std::int64_t v : {40, 10, 30, 20, -5}) s.add(v);  // -5 is stored as 0
  CHECK(s.exact());
  CHECK(s.count() == 5);
  CHECK(s.min() == 0);
  CHECK(s.max() == 40);
  CHECK(s.sum() == 100);
  CHECK(s.mean() == Approx(20.0));
  CHECK(s.median() == Approx(20.0));       // sorted 0 10 20 30 40
  CHECK(s.quantile(0.9) == Approx(36.0));  // h = 3.6: 30 + 0.6 · 10
  CHECK(s.values() == std::vector<std::int64_t>{0, 10, 20, 30, 40});
  CHECK(DurationSample().median() == 0.0);
}

TEST_CASE("duration sample: repeated values become weighted points", "[summary][sample]") {
  const DurationSample s = DurationSample::from_values({7, 3, 7, 7, 3, 9});
  const auto points = s.points();
  REQUIRE(points.size() == 3);
  CHECK(points[0].value == 3.0);
  CHECK(points[0].weight == 2);
  CHECK(points[1].value == 7.0);
  CHECK(points[1].weight == 3);
  CHECK(points[2].value == 9.0);
  CHECK(points[2].weight == 1);
}

TEST_CASE("duration sample: buckets tile the integers with width at most 1/128 of their value",
          "[summary][sample]") {
  // Hand-checked boundaries: 255 is the last 1-ns bucket, 256..257 the first 2-ns one.
  CHECK(DurationSample::bucket_low(DurationSample::bucket_of(255)) == 255);
  CHECK(DurationSample::bucket_width(DurationSample::bucket_of(255)) == 1);
  CHECK(DurationSample::bucket_low(DurationSample::bucket_of(257)) == 256);
  CHECK(DurationSample::bucket_width(DurationSample::bucket_of(257)) == 2);
  CHECK(DurationSample::bucket_low(DurationSample::bucket_of(1000000)) ==
        999424);  // 244 · 2^12 (2^19 ≤ v < 2^20)
  CHECK(DurationSample::bucket_width(DurationSample::bucket_of(1000000)) == 4096);
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<std::int64_t> any(0, std::int64_t{1} << 62);
  for (int i = 0; i < 10000; ++i) {
    const std::int64_t v = any(rng) >> (i % 60);
    const std::uint32_t b = DurationSample::bucket_of(v);
    const std::int64_t low = DurationSample::bucket_low(b);
    const std::int64_t width = DurationSample::bucket_width(b);
    REQUIRE(low <= v);
    REQUIRE(v - low < width);
    if (v >= 256) REQUIRE(width * 128 <= low);
    REQUIRE(DurationSample::bucket_of(low) == b);
    REQUIRE(DurationSample::bucket_of(low + width - 1) == b);
  }
}

TEST_CASE("duration sample: beyond the cap quantiles stay within 1/256, moments exact",
          "[summary][sample]") {
  std::mt19937_64 rng(11);
  const auto v = random_values(rng, 5000);
  const DurationSample s = of(v, 0, v.size());
  CHECK_FALSE(s.exact());
  CHECK(s.count() == 5000);
  CHECK(s.min() == *std::min_element(v.begin(), v.end()));
  CHECK(s.max() == *std::max_element(v.begin(), v.end()));
  std::int64_t sum = 0;
  for (const auto x : v) sum += x;
  CHECK(s.sum() == static_cast<std::uint64_t>(sum));
  for (const double p : {0.01, 0.1, 0.5, 0.9, 0.99}) {
    const double exact = type7(v, p);
    INFO("p = " << p);
    CHECK(std::abs(s.quantile(p) - exact) <= exact / 256.0 + 1.0);
  }
}

TEST_CASE("duration sample: merges depend only on the values added", "[summary][sample]") {
  std::mt19937_64 rng(5);
  for (const std::size_t n :
       {std::size_t{300}, std::size_t{1024}, std::size_t{1025}, std::size_t{4000}}) {
    const auto v = random_values(rng, n);
    const DurationSample whole = of(v, 0, n);
    const DurationSample a = of(v, 0, n / 3);
    const DurationSample b = of(v, n / 3, 2 * n / 3);
    const DurationSample c = of(v, 2 * n / 3, n);
    DurationSample left = a;  // (a + b) + c
    left.merge(b);
    left.merge(c);
    DurationSample bc = b;  // a + (b + c)
    bc.merge(c);
    DurationSample right = a;
    right.merge(bc);
    DurationSample reversed = c;  // c + b + a
    reversed.merge(b);
    reversed.merge(a);
    INFO("n = " << n);
    CHECK(whole.exact() == (n <= DurationSample::kExactCap));
    CHECK(left == whole);
    CHECK(right == whole);
    CHECK(reversed == whole);
  }
}

TEST_CASE("duration sample: rebuilt from its written form it is equal", "[summary][sample]") {
  std::mt19937_64 rng(9);
  const auto v = random_values(rng, 3000);
  const DurationSample s = of(v, 0, v.size());
  const DurationSample back =
      DurationSample::from_histogram(s.buckets(), s.min(), s.max(), s.sum());
  CHECK(back == s);
  const DurationSample small = of(v, 0, 10);
  CHECK(DurationSample::from_values(small.values()) == small);
}
