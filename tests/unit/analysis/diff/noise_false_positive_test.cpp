// How often does diff flag a change between two runs that differ only by noise? Runs are drawn
// by resampling, per row and rank, the real per-launch GPU times of the 2×H200 agreement capture
// (samples/nccl-h200/agree: the measured spread, warm-up and check launches included), 1,000
// seeded pairs of runs. docs/ci.md states the rates this test measures.
#include <catch2/catch.hpp>

#include <random>

#include "analysis/diff/run_diff.hpp"
#include "support/test_data.hpp"
#include "unit/run/summary/summary_test_support.hpp"

using npkit::RunSummary;
using npkit::Verdict;

namespace {

constexpr int kDraws = 1000;

// A run like `real` whose every rank sample is `real`'s values drawn with replacement, times
// `factor` on rank `slow_rank` of row `slow_row` (factor 1: noise only).
RunSummary resampled(const RunSummary& real, std::mt19937_64& rng, std::size_t slow_row = 0,
                     std::int32_t slow_rank = -1, double factor = 1.0) {
  RunSummary s = real;
  for (std::size_t i = 0; i < s.collectives.size(); ++i) {
    for (auto& r : s.collectives[i].ranks) {
      const auto values = r.time_ns.values();
      REQUIRE(!values.empty());
      std::uniform_int_distribution<std::size_t> pick(0, values.size() - 1);
      const double f = i == slow_row && r.rank == slow_rank ? factor : 1.0;
      npkit::DurationSample drawn;
      for (std::size_t k = 0; k < values.size(); ++k) {
        drawn.add(static_cast<std::int64_t>(static_cast<double>(values[pick(rng)]) * f));
      }
      r.time_ns = std::move(drawn);
    }
  }
  return s;
}

}  // namespace

TEST_CASE("noise only: false-positive rate at the agreement capture's spread", "[diff][noise]") {
  const RunSummary real = npkit::test::summarize_path(
      npkit::test::source_path("samples/nccl-h200/agree/dump"), "agree");
  REQUIRE(real.collectives.size() == 5);
  std::mt19937_64 rng(20261130);
  std::size_t rows = 0;
  std::size_t flagged_rows = 0;
  std::size_t flagged_runs = 0;
  std::size_t inconclusive_rows = 0;
  for (int draw = 0; draw < kDraws; ++draw) {
    const RunSummary base = resampled(real, rng);
    const RunSummary cand = resampled(real, rng);
    const auto d = npkit::diff_runs(base, cand, npkit::NoiseRule{});
    for (const auto& r : d.collectives) {
      ++rows;
      inconclusive_rows += r.judgement.verdict == Verdict::kInconclusive ? 1 : 0;
      const bool decided = r.judgement.verdict == Verdict::kRegression ||
                           r.judgement.verdict == Verdict::kImprovement;
      flagged_rows += decided ? 1 : 0;
    }
    flagged_runs += npkit::should_fail(d, npkit::FailOn::fail_safe()) ? 1 : 0;
  }
  INFO("changed rows " << flagged_rows << " of " << rows << ", inconclusive rows "
                       << inconclusive_rows << ", failed gates " << flagged_runs << " of "
                       << kDraws);
  CHECK(flagged_rows <= rows / 200);
  CHECK(rows == 5u * kDraws);
  // The gate's budget for spurious failures: at most 0.5 % of runs (docs/ci.md states the
  // measured rate).
  CHECK(flagged_runs <= kDraws / 200);
}

TEST_CASE("noise plus a 15 % slowdown on rank 0: detected in at least 95 % of draws",
          "[diff][noise]") {
  const RunSummary real = npkit::test::summarize_path(
      npkit::test::source_path("samples/nccl-h200/agree/dump"), "agree");
  std::mt19937_64 rng(7);
  for (std::size_t row = 0; row < real.collectives.size(); ++row) {
    std::size_t detected = 0;
    for (int draw = 0; draw < 200; ++draw) {
      const RunSummary base = resampled(real, rng);
      const RunSummary cand = resampled(real, rng, row, 0, 1.15);
      const auto d = npkit::diff_runs(base, cand, npkit::NoiseRule{});
      detected += d.collectives[row].judgement.verdict == Verdict::kRegression ? 1 : 0;
    }
    INFO("row " << row << " (" << real.collectives[row].key.size_bytes << " B): " << detected
                << " of 200");
    CHECK(detected >= 190);
  }
}
