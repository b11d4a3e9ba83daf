// analysis/diff/sample_comparison.hpp — is a candidate's duration different from the baseline's,
// beyond noise and by at least the minimum effect? Contract:
// - change = time(candidate) / time(baseline) − 1 (0 when the baseline time is 0); durations: a
//   positive change is slower. compare_samples takes a sample's median as its time;
//   compare_samples_at is given the times (a row pooled over ranks: `bandwidth`'s time, each
//   rank's median averaged over the ranks, so the change is of the times every command shows).
// - The noise test is the two-sided Mann–Whitney test (mann_whitney.hpp) over the samples'
//   points; it runs only when both sides hold at least min_samples values (else `tested` is
//   false and the verdict is unchanged: too few iterations to tell a change from noise).
// - Verdict: regression when tested, p < alpha and change ≥ min_effect; improvement when
//   tested, p < alpha and change ≤ −min_effect; inconclusive when |change| ≥ min_effect but the
//   test could not confirm it (too few iterations, or p ≥ alpha); unchanged otherwise. Both
//   conditions are needed for a change: a large move in noisy data is inconclusive, a tiny but
//   consistent one is unchanged.
#pragma once

#include <cstdint>

#include "run/summary/duration_sample.hpp"

namespace npkit {

// kMissing: the baseline has the row (timed) and the candidate lacks it, or a rank of it, or has it
// untimed (run_diff.hpp). kNotComparable: nothing to judge for another reason. kNotTested: both
// runs have the row and neither has the samples a test needs (untimed in both, fewer iterations
// than the rule's minimum, totals without samples): it passes no judgement either way.
enum class Verdict : std::uint8_t {
  kUnchanged,
  kImprovement,
  kRegression,
  kInconclusive,
  kMissing,
  kNotComparable,
  kNotTested,
};
inline constexpr int kVerdictCount = 7;

// "unchanged", "improvement", "regression", "inconclusive", "missing", "not comparable",
// "not tested"
const char* verdict_name(Verdict v);

struct NoiseRule {
  double min_effect = 0.05;  // --threshold
  double alpha = 0.001;
  std::uint64_t min_samples = 8;
};

struct SampleComparison {
  std::uint64_t base_count = 0;
  std::uint64_t cand_count = 0;
  double base_time = 0;  // ns
  double cand_time = 0;
  double change = 0;
  bool tested = false;
  double p_value = 1;
  Verdict verdict = Verdict::kUnchanged;
};

SampleComparison compare_samples(const DurationSample& base, const DurationSample& cand,
                                 const NoiseRule& rule);
SampleComparison compare_samples_at(const DurationSample& base, const DurationSample& cand,
                                    double base_time, double cand_time, const NoiseRule& rule);

}  // namespace npkit
