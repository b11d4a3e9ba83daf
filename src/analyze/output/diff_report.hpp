// output/diff_report.hpp — a RunDiff rendered for people (text, Markdown) and machines (JSON,
// JUnit XML).
// Contract:
// - Text and Markdown: inputs, configuration differences (cause candidates marked), the rule,
//   the collective rows, the phase rows, arrival skew, and a result line naming the exit policy.
//   Markdown is a PR comment: a PASS/FAIL heading, the changed rows in a table, every row in a
//   collapsed <details> block. Durations in µs (three decimals), changes in percent.
// - Run-wide missing data (RunDiff::missing) is listed before the tables and counted in the
//   result line.
// - JSON: schema "npkit-analyze.diff" version 3 (docs/cli.md), times in integer-valued ns.
// - JUnit XML: one testsuite per section (collectives, phases), one testcase per row; a row that
//   fails under `fail_on` is a <failure> (type = its verdict), a not comparable row that does not
//   fail is <skipped>; config differences are testsuite properties.
#pragma once

#include <string>

#include "analysis/diff/run_diff.hpp"

namespace npkit {

enum class DiffTextStyle { kText, kMarkdown };

void render_diff_text(const RunDiff& diff, FailOn fail_on, DiffTextStyle style, std::string& out);
void render_diff_json(const RunDiff& diff, FailOn fail_on, std::string& out);
void render_diff_junit(const RunDiff& diff, FailOn fail_on, std::string& out);

// "RING/LL → RING/SIMPLE" when the runs chose differently, else the one choice.
std::string choice_text(const CollectiveDiff& d);

// "+15.0%", "-3.2%"
std::string signed_percent(double change);
// "<0.001", "0.034", "-" when untested
std::string p_label(const SampleComparison& c);
// Why a row got its verdict, one line: the deciding rank, the reason, the cause candidates.
std::string row_detail(const RowJudgement& j, const RunDiff& diff);

}  // namespace npkit
