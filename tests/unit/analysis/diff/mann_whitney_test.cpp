// Mann–Whitney U with mid-ranks for ties: U, z and p computed by hand (normal approximation,
// tie-corrected variance, continuity correction 0.5).
#include <catch2/catch.hpp>

#include "analysis/diff/mann_whitney.hpp"
#include "run/summary/duration_sample.hpp"

using npkit::DurationSample;
using npkit::mann_whitney;

namespace {

std::vector<npkit::WeightedValue> points(std::vector<std::int64_t> v) {
  return DurationSample::from_values(std::move(v)).points();
}

}  // namespace

TEST_CASE("mann-whitney: separated samples without ties", "[diff][mann-whitney]") {
  // U = 9 (every a above every b); mean 4.5, variance 3·3/12·7 = 5.25;
  // z = (9 − 4.5 − 0.5) / √5.25 = 1.745743; p = erfc(z/√2) = 0.080856.
  const auto t = mann_whitney(points({4, 5, 6}), points({1, 2, 3}));
  CHECK(t.u == Approx(9.0));
  CHECK(t.z == Approx(1.745743).epsilon(1e-6));
  CHECK(t.p_value == Approx(0.080856).epsilon(1e-4));
  const auto r = mann_whitney(points({1, 2, 3}), points({4, 5, 6}));
  CHECK(r.u == Approx(0.0));
  CHECK(r.p_value == Approx(t.p_value));
}

TEST_CASE("mann-whitney: ties share mid-ranks and shrink the variance", "[diff][mann-whitney]") {
  // a = 1 2 2 3, b = 2 3 3 4: ranks 1 | 2 3 4 (mid 3) | 5 6 7 (mid 6) | 8; R_a = 1+3+3+6 = 13,
  // U = 13 − 10 = 3. Ties: two groups of 3, Σ(t³ − t) = 48; variance = 16/12 · (9 − 48/56) =
  // 10.857143; z = (3 − 8 + 0.5) / √10.857143 = −1.365698; p = 0.172034.
  const auto t = mann_whitney(points({1, 2, 2, 3}), points({2, 3, 3, 4}));
  CHECK(t.u == Approx(3.0));
  CHECK(t.z == Approx(-1.365698).epsilon(1e-6));
  CHECK(t.p_value == Approx(0.172034).epsilon(1e-4));
}

TEST_CASE("mann-whitney: ten against ten, all above", "[diff][mann-whitney]") {
  // U = 100, mean 50, variance 100/12 · 21 = 175; z = 49.5 / √175 = 3.741848; p = 1.8267e-4.
  std::vector<std::int64_t> a, b;
  for (int i = 0; i < 10; ++i) {
    a.push_back(1150 + i);
    b.push_back(1000 + i);
  }
  const auto t = mann_whitney(points(a), points(b));
  CHECK(t.u == Approx(100.0));
  CHECK(t.p_value == Approx(1.8267e-4).epsilon(1e-3));
}

TEST_CASE("mann-whitney: identical or empty samples are not different", "[diff][mann-whitney]") {
  CHECK(mann_whitney(points({5, 5, 5}), points({5, 5})).p_value == 1.0);  // zero variance
  CHECK(mann_whitney(points({}), points({1, 2})).p_value == 1.0);
  const auto same = mann_whitney(points({1, 2, 3, 4}), points({1, 2, 3, 4}));
  CHECK(same.u == Approx(8.0));
  CHECK(same.p_value == Approx(1.0));
}
