#include "output/diff_report.hpp"

#include <fmt/format.h>

#include <limits>

#include "output/json_writer.hpp"
#include "output/markup_escape.hpp"
#include "output/render.hpp"
#include "output/text_table.hpp"

namespace npkit {
namespace {

using Out = std::back_insert_iterator<std::string>;

// A change to show: both sides timed on the same ranks (a missing row's sides differ).
bool has_medians(const RowJudgement& j) {
  return j.pooled.base_count > 0 && j.pooled.cand_count > 0 && j.verdict != Verdict::kMissing;
}

// "23/23, 21/23 (2 stale on a rank)": instances timed of the row's instances, baseline then
// candidate, how many a stale channel event cost, how many are flagged (host-disagree or
// implausibly short: their flagged members are left out) and how many are incomplete.
std::string timed_cell(const CollectiveDiff& d) {
  auto side = [](bool present, const RowQuality& q) {
    if (!present) return std::string("-");
    std::string notes;
    if (q.stale > 0) notes = fmt::format("{} stale on a rank", q.stale);
    if (q.flagged > 0) notes += fmt::format("{}{} flagged", notes.empty() ? "" : ", ", q.flagged);
    if (q.incomplete > 0) {
      notes += fmt::format("{}{} incomplete", notes.empty() ? "" : ", ", q.incomplete);
    }
    return fmt::format("{}/{}{}", q.timed, q.instances, notes.empty() ? "" : " (" + notes + ")");
  };
  return side(d.in_base, d.base_quality) + ", " + side(d.in_cand, d.cand_quality);
}

TextTable collective_table(const RunDiff& diff, bool changed_only) {
  TextTable t;
  t.columns = {"verdict",   "collective", "ranks", "size (B)",   "algo/proto", "timed", "base (us)",
               "cand (us)", "change",     "p",     "busbw base", "busbw cand", "detail"};
  for (const auto& d : diff.collectives) {
    const RowJudgement& j = d.judgement;
    if (changed_only && (j.verdict == Verdict::kUnchanged || j.verdict == Verdict::kNotTested)) {
      continue;
    }
    const bool medians = has_medians(j);
    t.add_row({verdict_name(j.verdict), d.label(), std::to_string(d.nranks),
               size_label(d.size_bytes, d.size_kind), choice_text(d), timed_cell(d),
               d.base_time_ns > 0 ? us(d.base_time_ns) : "-",
               d.cand_time_ns > 0 ? us(d.cand_time_ns) : "-",
               medians ? signed_percent(j.pooled.change) : "-", medians ? p_label(j.pooled) : "-",
               d.in_base ? gbps_or_dash(d.base_busbw_gbps) : "-",
               d.in_cand ? gbps_or_dash(d.cand_busbw_gbps) : "-", row_detail(j, diff)});
  }
  return t;
}

TextTable phase_table(const RunDiff& diff, bool changed_only) {
  TextTable t;
  t.columns = {"verdict",        "source",         "domain", "phase", "share base", "share cand",
               "span base (us)", "span cand (us)", "change", "p",     "detail"};
  for (const auto& d : diff.phases) {
    const RowJudgement& j = d.judgement;
    if (changed_only && (j.verdict == Verdict::kUnchanged || j.verdict == Verdict::kNotTested)) {
      continue;
    }
    const bool spans = j.pooled.base_count > 0 && j.pooled.cand_count > 0;
    t.add_row({verdict_name(j.verdict), d.key.source, d.key.domain, d.key.phase,
               d.in_base ? percent(d.base_share) : "-", d.in_cand ? percent(d.cand_share) : "-",
               spans ? us(j.pooled.base_time) : "-", spans ? us(j.pooled.cand_time) : "-",
               spans ? signed_percent(j.pooled.change) : "-", spans ? p_label(j.pooled) : "-",
               spans || !j.compared ? row_detail(j, diff)
                                    : "totals only: shown for attribution, not tested"});
  }
  return t;
}

TextTable sync_table(const RunDiff& diff) {
  TextTable t;
  t.columns = {"ranks", "rank", "skew base (us)", "skew cand (us)", "last base", "last cand"};
  for (const auto& d : diff.sync) {
    t.add_row({std::to_string(d.nranks), std::to_string(d.rank),
               d.in_base ? us(d.base_skew_ns) : "-", d.in_cand ? us(d.cand_skew_ns) : "-",
               d.in_base ? percent(d.base_last_share) : "-",
               d.in_cand ? percent(d.cand_last_share) : "-"});
  }
  return t;
}

std::string rule_text(const NoiseRule& r) {
  return fmt::format(
      "Rule: a row changes when its time moves by at least {:.1f}% (--threshold) and a "
      "two-sided Mann-Whitney test over the iterations gives p < {} (at least {} iterations per "
      "side); each row is judged on its ranks together (time: each rank's median, mean over "
      "ranks, as bandwidth shows it; the test on the iterations pooled) and on every rank (its "
      "median). timed: instances with a GPU time of the row's instances, baseline, candidate; "
      "a side with fewer than {:.0f}% timed is marked below the quality floor.",
      100.0 * r.min_effect, r.alpha, r.min_samples, 100.0 * kQualityFloor);
}

std::string result_line(const RunDiff& diff, FailOn fail_on) {
  const VerdictCounts n = count_verdicts(diff);
  const bool failed = should_fail(diff, fail_on);
  return fmt::format(
      "Result: {} regression(s), {} improvement(s), {} inconclusive, {} unchanged, {} missing, "
      "{} not comparable, {} not tested{}{}: {} (--fail-on {})",
      n.regressions, n.improvements, n.inconclusive, n.unchanged, n.missing, n.not_comparable,
      n.not_tested,
      diff.missing.empty() ? "" : fmt::format("; {} run-wide data problem(s)", diff.missing.size()),
      diff.untested.empty() ? "" : "; nothing tested", failed ? "FAIL" : "PASS", fail_on.name());
}

// " (environment: ENV.txt)" when settings were read from environment files.
std::string env_note(const std::set<std::string>& files) {
  if (files.empty()) return "";
  return fmt::format(" (environment: {})", fmt::join(files, ", "));
}

// Ranks without data on either side (RunDiff::rank_coverage) and run-wide data the candidate
// lacks (RunDiff::missing).
void missing_lines(const RunDiff& diff, bool markdown, std::string& out) {
  if (!diff.untested.empty())
    out += fmt::format("{}{}\n", markdown ? "**Not tested:** " : "Not tested: ", diff.untested);
  if (!diff.rank_coverage.empty()) {
    out += markdown ? "**Ranks with data:**\n\n" : "Ranks with data:\n";
    for (const auto& c : diff.rank_coverage) {
      out += fmt::format("{}{}\n", markdown ? "- " : "  ", c);
    }
    if (markdown) out += "\n";
  }
  if (diff.missing.empty()) return;
  out += markdown ? "**Missing data:**\n\n" : "Missing data:\n";
  for (const auto& m : diff.missing) out += fmt::format("{}{}\n", markdown ? "- " : "  ", m);
  if (markdown) out += "\n";
}

void config_lines(const RunDiff& diff, bool markdown, std::string& out) {
  if (diff.config.empty()) {
    out += markdown ? "No configuration differences.\n\n" : "Configuration differences: none\n";
    return;
  }
  out += fmt::format("Configuration differences ({}):\n", diff.config.size());
  if (markdown) out += "\n";
  for (const auto& c : diff.config) {
    out += fmt::format("{}{}{}\n", markdown ? "- " : "  ", c.describe(),
                       c.cause_candidate ? "" : " (not a cause candidate)");
  }
  if (markdown) out += "\n";
}

void render_text_body(const RunDiff& diff, FailOn fail_on, std::string& out) {
  out += fmt::format("baseline:  {}{}\ncandidate: {}{}\n", fmt::join(diff.base_inputs, ", "),
                     env_note(diff.base_env_files), fmt::join(diff.cand_inputs, ", "),
                     env_note(diff.cand_env_files));
  config_lines(diff, false, out);
  missing_lines(diff, false, out);
  out += rule_text(diff.rule) + "\n\n";
  TextTable c = collective_table(diff, false);
  c.title =
      "Collectives (time: each rank's median GPU time per iteration, mean over ranks, as in "
      "bandwidth)";
  if (c.rows.empty()) {
    out += "Collectives: none in either run\n";
  } else {
    render_text(c, out);
  }
  if (!diff.phases.empty()) {
    TextTable p = phase_table(diff, false);
    p.title = "\nPhases (share: median over ranks of the phase's share of the rank's time)";
    render_text(p, out);
  }
  if (!diff.sync.empty()) {
    TextTable s = sync_table(diff);
    s.title = "\nArrival skew (GPU start minus the earliest rank's, median; shown, not judged)";
    render_text(s, out);
  }
  out += "\n" + result_line(diff, fail_on) + "\n";
}

void render_markdown_body(const RunDiff& diff, FailOn fail_on, std::string& out) {
  const bool failed = should_fail(diff, fail_on);
  out += fmt::format("### npkit-analyze diff: {}\n\n", failed ? "FAIL" : "PASS");
  out += result_line(diff, fail_on) + "\n\n";
  out += fmt::format("Baseline `{}`{}, candidate `{}`{}.\n\n", fmt::join(diff.base_inputs, "`, `"),
                     env_note(diff.base_env_files), fmt::join(diff.cand_inputs, "`, `"),
                     env_note(diff.cand_env_files));
  config_lines(diff, true, out);
  missing_lines(diff, true, out);
  TextTable changed = collective_table(diff, true);
  TextTable changed_phases = phase_table(diff, true);
  if (changed.rows.empty() && changed_phases.rows.empty()) {
    out += "No row changed.\n\n";
  } else {
    if (!changed.rows.empty()) {
      changed.title = "Changed collectives";
      render_markdown(changed, out);
    }
    if (!changed_phases.rows.empty()) {
      changed_phases.title = "Changed phases";
      render_markdown(changed_phases, out);
    }
  }
  out += "<details><summary>Every row</summary>\n\n";
  TextTable all = collective_table(diff, false);
  all.title =
      "Collectives (time: each rank's median GPU time per iteration, mean over ranks, as "
      "in bandwidth)";
  render_markdown(all, out);
  if (!diff.phases.empty()) {
    TextTable p = phase_table(diff, false);
    p.title = "Phases";
    render_markdown(p, out);
  }
  if (!diff.sync.empty()) {
    TextTable s = sync_table(diff);
    s.title = "Arrival skew (shown, not judged)";
    render_markdown(s, out);
  }
  out += rule_text(diff.rule) + "\n\n</details>\n";
}

// A side's time or busbw, null (a NaN, which the writer makes null) where the side has no clean
// sample to give one.
double measured(double v) {
  return v > 0 ? v : std::numeric_limits<double>::quiet_NaN();
}

void quality_json(JsonWriter& w, const char* key, const RowQuality& q) {
  w.object(key, [&] {
    w.field("instances", q.instances);
    w.field("timed", q.timed);
    w.field("not_sampled", q.not_sampled);
    w.field("stale", q.stale);
    w.field("incomplete", q.incomplete);
    w.field("flagged", q.flagged);
    w.field("host_disagree", q.host_disagree);
    w.field("implausibly_short", q.short_);
    w.field("ranks_timed", q.ranks_timed);
    w.field("nranks", q.nranks);
    w.field("below_floor", q.below_floor());
  });
}

void comparison_json(JsonWriter& w, const SampleComparison& c) {
  w.field("baseline_count", c.base_count);
  w.field("candidate_count", c.cand_count);
  w.field("baseline_time_ns", c.base_time);
  w.field("candidate_time_ns", c.cand_time);
  w.field("change", c.change);
  if (c.tested) w.field("p_value", c.p_value);
  w.field("verdict", verdict_name(c.verdict));
}

void judgement_json(JsonWriter& w, const RowJudgement& j) {
  w.field("verdict", verdict_name(j.verdict));
  if (!j.reason.empty()) w.field("reason", j.reason);
  if (j.verdict == Verdict::kRegression || j.verdict == Verdict::kImprovement) {
    if (j.deciding_rank == kPooled) {
      w.field("deciding", "pooled");
    } else {
      w.field("deciding", j.deciding_rank);
    }
    w.field("deciding_change", j.deciding_change);
  }
  w.object("pooled", [&] { comparison_json(w, j.pooled); });
  w.objects("ranks", j.ranks, [&](const auto& r) {
    w.field("rank", r.rank);
    comparison_json(w, r.comparison);
  });
}

struct JunitCase {
  std::string classname;
  std::string name;
  Verdict verdict = Verdict::kUnchanged;
  std::string message;
};

void junit_suite(const std::string& name, const std::vector<JunitCase>& cases, FailOn fail_on,
                 const RunDiff& diff, std::string& out) {
  std::size_t failures = 0;
  std::size_t skipped = 0;
  for (const auto& c : cases) {
    if (fail_on.fails(c.verdict)) {
      ++failures;
    } else if (c.verdict == Verdict::kNotComparable || c.verdict == Verdict::kNotTested) {
      ++skipped;
    }
  }
  fmt::format_to(Out(out),
                 "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">\n", name,
                 cases.size(), failures, skipped);
  out += "    <properties>\n";
  fmt::format_to(Out(out), "      <property name=\"baseline\" value=\"{}\"/>\n",
                 markup_escaped(fmt::format("{}", fmt::join(diff.base_inputs, ", "))));
  fmt::format_to(Out(out), "      <property name=\"candidate\" value=\"{}\"/>\n",
                 markup_escaped(fmt::format("{}", fmt::join(diff.cand_inputs, ", "))));
  for (const auto& c : diff.config) {
    fmt::format_to(Out(out), "      <property name=\"config {}\" value=\"{} → {}\"/>\n",
                   markup_escaped(c.what), markup_escaped(c.base), markup_escaped(c.cand));
  }
  out += "    </properties>\n";
  for (const auto& c : cases) {
    fmt::format_to(Out(out), "    <testcase classname=\"{}\" name=\"{}\"",
                   markup_escaped(c.classname), markup_escaped(c.name));
    if (fail_on.fails(c.verdict)) {
      fmt::format_to(Out(out), ">\n      <failure type=\"{}\" message=\"{}\"/>\n    </testcase>\n",
                     verdict_name(c.verdict), markup_escaped(c.message));
    } else if (c.verdict == Verdict::kNotComparable || c.verdict == Verdict::kNotTested) {
      fmt::format_to(Out(out), ">\n      <skipped message=\"{}\"/>\n    </testcase>\n",
                     markup_escaped(c.message));
    } else {
      out += "/>\n";
    }
  }
  out += "  </testsuite>\n";
}

std::string case_message(const RowJudgement& j, const RunDiff& diff) {
  std::string m = verdict_name(j.verdict);
  if (has_medians(j)) {
    m += fmt::format(": time {} → {} us ({}, p {})", us(j.pooled.base_time), us(j.pooled.cand_time),
                     signed_percent(j.pooled.change), p_label(j.pooled));
  }
  const std::string detail = row_detail(j, diff);
  if (!detail.empty()) m += "; " + detail;
  return m;
}

}  // namespace

std::string choice_text(const CollectiveDiff& d) {
  if (d.in_base && d.in_cand && d.base_choice != d.cand_choice) {
    return d.base_choice + " → " + d.cand_choice;
  }
  return d.in_base ? d.base_choice : d.cand_choice;
}

std::string signed_percent(double change) {
  return fmt::format("{:+.1f}%", 100.0 * change);
}

std::string p_label(const SampleComparison& c) {
  if (!c.tested) return "-";
  if (c.p_value < 0.001) return "<0.001";
  return fmt::format("{:.3f}", c.p_value);
}

std::string row_detail(const RowJudgement& j, const RunDiff& diff) {
  const std::string causes =
      diff.causes.empty() ? "no configuration difference recorded"
                          : fmt::format("cause candidate(s): {}", fmt::join(diff.causes, "; "));
  // An algorithm/protocol change (the reason of a judged row) comes before what decided it.
  const std::string choice = j.reason.empty() ? "" : j.reason + "; ";
  switch (j.verdict) {
    case Verdict::kRegression:
    case Verdict::kImprovement: {
      std::string who =
          j.deciding_rank == kPooled
              ? fmt::format("all ranks {}", signed_percent(j.deciding_change))
              : fmt::format("rank {} {}", j.deciding_rank, signed_percent(j.deciding_change));
      return choice + who + "; " + causes;
    }
    case Verdict::kInconclusive: {
      const std::string why =
          j.pooled.tested
              ? fmt::format("p {} is not below {}", p_label(j.pooled), diff.rule.alpha)
              : fmt::format("fewer than {} iterations on a side", diff.rule.min_samples);
      return fmt::format("{}moved {} but {}: not confirmed", choice,
                         signed_percent(j.pooled.change), why);
    }
    case Verdict::kMissing:
      return j.reason;
    case Verdict::kNotComparable:
      if (j.reason.rfind("only in", 0) == 0 || j.reason.rfind("untimed", 0) == 0 ||
          j.reason.rfind("flagged", 0) == 0) {
        return j.reason;
      }
      return choice + (diff.causes.empty()
                           ? "no configuration difference recorded (NCCL's tuner chose "
                             "differently, or a setting the inputs do not record changed)"
                           : causes);
    case Verdict::kNotTested:
      if (!j.reason.empty()) return j.reason;
      break;
    case Verdict::kUnchanged:
      break;
  }
  if (j.compared && !j.pooled.tested) {
    return fmt::format("{}fewer than {} iterations on a side: not tested", choice,
                       diff.rule.min_samples);
  }
  return j.reason;
}

void render_diff_text(const RunDiff& diff, FailOn fail_on, DiffTextStyle style, std::string& out) {
  if (style == DiffTextStyle::kMarkdown) {
    render_markdown_body(diff, fail_on, out);
  } else {
    render_text_body(diff, fail_on, out);
  }
}

void render_diff_json(const RunDiff& diff, FailOn fail_on, std::string& out) {
  JsonWriter w(out);
  w.begin_object();
  w.field("schema", "npkit-analyze.diff");
  w.field("schema_version", 3);
  w.values("baseline", diff.base_inputs);
  w.values("candidate", diff.cand_inputs);
  w.values("baseline_env_files", diff.base_env_files);
  w.values("candidate_env_files", diff.cand_env_files);
  w.object("rule", [&] {
    w.field("threshold", diff.rule.min_effect);
    w.field("alpha", diff.rule.alpha);
    w.field("min_samples", diff.rule.min_samples);
  });
  w.field("fail_on", fail_on.name());
  w.field("result", should_fail(diff, fail_on) ? "fail" : "pass");
  w.values("missing", diff.missing);
  w.values("rank_coverage", diff.rank_coverage);
  if (!diff.untested.empty()) w.field("untested", diff.untested);
  const VerdictCounts n = count_verdicts(diff);
  w.object("counts", [&] {
    w.field("regressions", n.regressions);
    w.field("improvements", n.improvements);
    w.field("inconclusive", n.inconclusive);
    w.field("unchanged", n.unchanged);
    w.field("missing", n.missing);
    w.field("not_comparable", n.not_comparable);
    w.field("not_tested", n.not_tested);
  });
  w.objects("config_differences", diff.config, [&](const auto& c) {
    w.field("what", c.what);
    w.field("baseline", c.base);
    w.field("candidate", c.cand);
    w.field("role", c.cause_candidate ? "cause candidate" : "context");
  });
  w.values("cause_candidates", diff.causes);
  w.objects("collectives", diff.collectives, [&](const auto& d) {
    w.field("collective", d.collective);
    if (d.tag != 0) w.field("tag", d.tag);
    w.field("nranks", d.nranks);
    w.field("size_bytes", d.size_bytes);
    w.field("size_kind", size_kind_name(d.size_kind));
    if (d.in_base) {
      w.field("baseline_choice", d.base_choice);
      w.field("baseline_time_ns", measured(d.base_time_ns));
      w.field("baseline_busbw_gbps", measured(d.base_busbw_gbps));
      quality_json(w, "baseline_quality", d.base_quality);
    }
    if (d.in_cand) {
      w.field("candidate_choice", d.cand_choice);
      w.field("candidate_time_ns", measured(d.cand_time_ns));
      w.field("candidate_busbw_gbps", measured(d.cand_busbw_gbps));
      quality_json(w, "candidate_quality", d.cand_quality);
    }
    judgement_json(w, d.judgement);
  });
  w.objects("phases", diff.phases, [&](const auto& d) {
    w.field("source", d.key.source);
    w.field("domain", d.key.domain);
    w.field("phase", d.key.phase);
    if (d.in_base) w.field("baseline_share", d.base_share);
    if (d.in_cand) w.field("candidate_share", d.cand_share);
    judgement_json(w, d.judgement);
  });
  w.objects("sync", diff.sync, [&](const auto& d) {
    w.field("nranks", d.nranks);
    w.field("rank", d.rank);
    if (d.in_base) {
      w.field("baseline_skew_median_ns", d.base_skew_ns);
      w.field("baseline_arrived_last_share", d.base_last_share);
    }
    if (d.in_cand) {
      w.field("candidate_skew_median_ns", d.cand_skew_ns);
      w.field("candidate_arrived_last_share", d.cand_last_share);
    }
  });
  w.end_object();
  out += "\n";
}

void render_diff_junit(const RunDiff& diff, FailOn fail_on, std::string& out) {
  std::vector<JunitCase> collectives;
  for (const auto& d : diff.collectives) {
    collectives.push_back({"npkit.collectives." + d.collective,
                           fmt::format("{} n={} size={} {}", d.label(), d.nranks,
                                       size_label(d.size_bytes, d.size_kind), choice_text(d)),
                           d.judgement.verdict, case_message(d.judgement, diff)});
  }
  std::vector<JunitCase> phases;
  for (const auto& d : diff.phases) {
    phases.push_back({"npkit.phases." + d.key.source,
                      fmt::format("{} {} {}", d.key.source, d.key.domain, d.key.phase),
                      d.judgement.verdict, case_message(d.judgement, diff)});
  }
  std::vector<JunitCase> coverage;
  for (const auto& m : diff.missing) {
    coverage.push_back({"npkit.coverage", m, Verdict::kMissing, "missing: " + m});
  }
  if (!diff.untested.empty()) {
    // Nothing tested: a failing case unless the gate allows empty, then a skipped one.
    coverage.push_back({"npkit.coverage", "nothing tested",
                        fail_on.allows_empty() ? Verdict::kNotTested : Verdict::kMissing,
                        diff.untested});
  }
  std::size_t tests = collectives.size() + phases.size() + coverage.size();
  std::size_t failures = 0;
  for (const auto* list : {&collectives, &phases, &coverage}) {
    for (const auto& c : *list) failures += fail_on.fails(c.verdict) ? 1 : 0;
  }
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  fmt::format_to(Out(out),
                 "<testsuites name=\"npkit-analyze diff\" tests=\"{}\" failures=\"{}\">\n", tests,
                 failures);
  junit_suite("collectives", collectives, fail_on, diff, out);
  junit_suite("phases", phases, fail_on, diff, out);
  if (!coverage.empty()) junit_suite("coverage", coverage, fail_on, diff, out);
  out += "</testsuites>\n";
}

}  // namespace npkit
