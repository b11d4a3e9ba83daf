#include "output/html/diff_report_model.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "output/diff_report.hpp"
#include "output/html/svg.hpp"
#include "output/render.hpp"

namespace npkit::html {
namespace {

std::string joined(const std::vector<std::string>& items) {
  return fmt::format("{}", fmt::join(items, ", "));
}

std::string median_text(const RowJudgement& j, bool base) {
  if (!j.compared) return "-";
  return us(base ? j.pooled.base_time : j.pooled.cand_time);
}

// The change that decided the row (a rank's, when one did), as the text report shows it.
double shown_change(const RowJudgement& j) {
  const bool decided = j.verdict == Verdict::kRegression || j.verdict == Verdict::kImprovement;
  return decided ? j.deciding_change : j.pooled.change;
}

std::vector<Fact> facts(const RunDiff& diff, FailOn fail_on) {
  const VerdictCounts c = count_verdicts(diff);
  return {
      {"baseline", joined(diff.base_inputs)},
      {"candidate", joined(diff.cand_inputs)},
      {"environment files",
       fmt::format("baseline: {}; candidate: {}",
                   diff.base_env_files.empty()
                       ? "none"
                       : joined({diff.base_env_files.begin(), diff.base_env_files.end()}),
                   diff.cand_env_files.empty()
                       ? "none"
                       : joined({diff.cand_env_files.begin(), diff.cand_env_files.end()}))},
      {"rule", fmt::format("a row changes when its median moves by at least {:.1f}% and a "
                           "two-sided Mann-Whitney test gives p < {} (at least {} iterations "
                           "per side); pooled ranks and every rank are judged",
                           diff.rule.min_effect * 100, diff.rule.alpha, diff.rule.min_samples)},
      {"rows", fmt::format("{} regression(s), {} improvement(s), {} inconclusive, {} "
                           "unchanged, {} missing, {} not comparable, {} not tested",
                           c.regressions, c.improvements, c.inconclusive, c.unchanged, c.missing,
                           c.not_comparable, c.not_tested)},
      {"missing data", diff.missing.empty() ? "none" : joined(diff.missing)},
      {"tested", diff.untested.empty() ? "yes" : diff.untested},
      {"result", fmt::format("{} (--fail-on {})", should_fail(diff, fail_on) ? "FAIL" : "PASS",
                             fail_on.name())},
  };
}

Section config_section(const RunDiff& diff) {
  Section s{"config", "Configuration differences", {}};
  if (diff.config.empty()) {
    s.blocks.emplace_back(
        Paragraph{"None recorded: the runs' NCCL version, NCCL_* settings, GPUs "
                  "and communicator sizes are the same."});
    return s;
  }
  Table t;
  t.table.columns = {"what", "baseline", "candidate", "cause candidate"};
  for (const auto& d : diff.config) {
    t.table.add_row({d.what, d.base, d.cand, d.cause_candidate ? "yes" : "no (listed only)"});
  }
  t.note = "Cause candidates are named in the detail of the rows that changed.";
  s.blocks.emplace_back(std::move(t));
  return s;
}

RegressionBar bar_of(const CollectiveDiff& row, const NoiseRule& rule) {
  const RowJudgement& j = row.judgement;
  RegressionBar b;
  b.label = format_bytes(static_cast<double>(row.size_bytes));
  const double change = shown_change(j) * 100;
  const double threshold = rule.min_effect * 100;
  b.change_percent = change;
  b.noise_low_percent = -threshold;
  b.noise_high_percent = threshold;
  if (j.verdict == Verdict::kUnchanged || j.verdict == Verdict::kInconclusive) {
    b.noise_low_percent = std::min(-threshold, change);
    b.noise_high_percent = std::max(threshold, change);
  }
  b.tooltip = fmt::format("{} ({}): {} → {} us, {}; p {}; {}", b.label, row.cand_choice,
                          median_text(j, true), median_text(j, false), signed_percent(change / 100),
                          p_label(j.pooled), verdict_name(j.verdict));
  return b;
}

Section regression_section(const RunDiff& diff) {
  Section s{"regressions", "Change of GPU time per size", {}};
  std::map<std::tuple<std::string, std::int32_t>, RegressionBars> plots;
  Table not_comparable;
  not_comparable.table.columns = {"verdict",  "collective", "ranks",
                                  "size (B)", "algo/proto", "reason"};
  for (const auto& row : diff.collectives) {
    if (row.judgement.verdict == Verdict::kNotComparable ||
        row.judgement.verdict == Verdict::kMissing) {
      not_comparable.table.add_row({verdict_name(row.judgement.verdict), row.label(),
                                    std::to_string(row.nranks), std::to_string(row.size_bytes),
                                    choice_text(row), row.judgement.reason});
      continue;
    }
    auto [it, fresh] = plots.try_emplace({row.collective, row.nranks});
    RegressionBars& p = it->second;
    if (fresh) {
      p.title = fmt::format("{} on {} ranks: change of GPU time", row.collective, row.nranks);
      p.note = fmt::format(
          "Per size: the change of the median GPU time (the pooled ranks', or the rank that "
          "decided the row). Grey band: ±{:.1f}% (--threshold), widened to the change where the "
          "Mann-Whitney test could not tell it from noise. Red: slower beyond noise; green: "
          "faster.",
          diff.rule.min_effect * 100);
      p.metric = "time";
      p.higher_is_better = false;
    }
    p.bars.push_back(bar_of(row, diff.rule));
  }
  for (auto& [key, p] : plots) s.blocks.emplace_back(std::move(p));
  if (plots.empty()) s.blocks.emplace_back(Paragraph{"No row could be compared."});
  if (!not_comparable.table.rows.empty()) {
    not_comparable.table.title = "Missing or not comparable (no bar)";
    not_comparable.note =
        "Missing: the baseline timed the row and the candidate lacks it, a rank of it, or its "
        "time (the gate fails unless --allow-missing). Not comparable: only the candidate has "
        "the row, or neither run timed it.";
    s.blocks.emplace_back(std::move(not_comparable));
  }
  return s;
}

Section rows_section(const RunDiff& diff) {
  Section s{"rows", "Every row", {}};
  Table colls;
  colls.table.title = "Collectives (GPU time per rank and iteration, median over pooled ranks)";
  colls.table.columns = {"verdict",   "collective", "ranks",  "size (B)", "algo/proto",
                         "base (us)", "cand (us)",  "change", "p",        "detail"};
  for (const auto& row : diff.collectives) {
    const RowJudgement& j = row.judgement;
    const std::string choice = choice_text(row);
    colls.table.add_row(
        {verdict_name(j.verdict), row.label(), std::to_string(row.nranks),
         std::to_string(row.size_bytes), choice, median_text(j, true), median_text(j, false),
         j.compared && j.verdict != Verdict::kMissing ? signed_percent(shown_change(j)) : "-",
         p_label(j.pooled), row_detail(j, diff)});
  }
  s.blocks.emplace_back(std::move(colls));
  if (!diff.phases.empty()) {
    Table phases;
    phases.table.title = "Phases (exclusive time per span, or totals for proxy steps)";
    phases.table.columns = {"verdict",    "source", "domain", "phase", "base share",
                            "cand share", "change", "p",      "detail"};
    for (const auto& row : diff.phases) {
      const RowJudgement& j = row.judgement;
      phases.table.add_row({verdict_name(j.verdict), row.key.source, row.key.domain, row.key.phase,
                            percent(row.base_share), percent(row.cand_share),
                            j.compared ? signed_percent(shown_change(j)) : "-", p_label(j.pooled),
                            row_detail(j, diff)});
    }
    s.blocks.emplace_back(std::move(phases));
  }
  return s;
}

Section skew_section(const RunDiff& diff) {
  Section s{"skew", "Arrival skew (shown, not judged)", {}};
  if (diff.sync.empty()) {
    s.blocks.emplace_back(Paragraph{"Neither run has per-rank arrival times."});
    return s;
  }
  Table t;
  t.table.columns = {"ranks", "rank", "skew base (us)", "skew cand (us)", "last base", "last cand"};
  for (const auto& r : diff.sync) {
    t.table.add_row({std::to_string(r.nranks), std::to_string(r.rank), us(r.base_skew_ns),
                     us(r.cand_skew_ns), percent(r.base_last_share), percent(r.cand_last_share)});
  }
  t.note = "GPU start minus the earliest rank's, median; skews near zero make changes meaningless.";
  s.blocks.emplace_back(std::move(t));
  return s;
}

}  // namespace

ReportModel build_diff_report_model(const RunDiff& diff, FailOn fail_on) {
  ReportModel m;
  m.title =
      "npkit-analyze diff: " + joined(diff.cand_inputs) + " against " + joined(diff.base_inputs);
  m.subtitle = should_fail(diff, fail_on) ? "FAIL" : "PASS";
  m.facts = facts(diff, fail_on);
  m.sections.push_back(config_section(diff));
  m.sections.push_back(regression_section(diff));
  m.sections.push_back(rows_section(diff));
  m.sections.push_back(skew_section(diff));
  return m;
}

}  // namespace npkit::html
