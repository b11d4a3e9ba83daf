#include "analysis/diff/sample_comparison.hpp"

#include "analysis/diff/mann_whitney.hpp"

namespace npkit {

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kImprovement:
      return "improvement";
    case Verdict::kRegression:
      return "regression";
    case Verdict::kNotComparable:
      return "not comparable";
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
  if (!c.tested) return c;
  c.p_value = mann_whitney(cand.points(), base.points()).p_value;
  if (c.p_value >= rule.alpha) return c;
  if (c.change >= rule.min_effect) c.verdict = Verdict::kRegression;
  if (c.change <= -rule.min_effect) c.verdict = Verdict::kImprovement;
  return c;
}

}  // namespace npkit
