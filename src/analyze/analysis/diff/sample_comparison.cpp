#include "analysis/diff/sample_comparison.hpp"

#include "analysis/diff/mann_whitney.hpp"

namespace npkit {

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kImprovement:
      return "improvement";
    case Verdict::kRegression:
      return "regression";
    case Verdict::kInconclusive:
      return "inconclusive";
    case Verdict::kMissing:
      return "missing";
    case Verdict::kNotComparable:
      return "not comparable";
    case Verdict::kNotTested:
      return "not tested";
    case Verdict::kUnchanged:
      break;
  }
  return "unchanged";
}

SampleComparison compare_samples(const DurationSample& base, const DurationSample& cand,
                                 const NoiseRule& rule) {
  return compare_samples_at(base, cand, base.median(), cand.median(), rule);
}

SampleComparison compare_samples_at(const DurationSample& base, const DurationSample& cand,
                                    double base_time, double cand_time, const NoiseRule& rule) {
  SampleComparison c;
  c.base_count = base.count();
  c.cand_count = cand.count();
  c.base_time = base_time;
  c.cand_time = cand_time;
  c.change = c.base_time > 0 ? c.cand_time / c.base_time - 1.0 : 0.0;
  c.tested = c.base_count >= rule.min_samples && c.cand_count >= rule.min_samples;
  const bool large = c.change >= rule.min_effect || c.change <= -rule.min_effect;
  if (c.tested) c.p_value = mann_whitney(cand.points(), base.points()).p_value;
  if (!large) return c;
  if (!c.tested || c.p_value >= rule.alpha) {
    c.verdict = Verdict::kInconclusive;
  } else {
    c.verdict = c.change > 0 ? Verdict::kRegression : Verdict::kImprovement;
  }
  return c;
}

}  // namespace npkit
