// output/html/diff_report_model.hpp — the report model of `npkit-analyze diff --format html`.
// Contract: build_diff_report_model fills, from a RunDiff judged under `fail_on`:
// - facts: baseline and candidate inputs, the noise rule, the verdict counts, the run-wide
//   missing data and the result (PASS/FAIL with the exit policy);
// - "config": the configuration differences (cause candidates marked), or a paragraph saying
//   there are none;
// - "regressions": per (collective, ranks) one RegressionBars of GPU time per size (metric
//   "time", lower is better): bar = the change of the comparison that decided the row (the
//   pooled one unless a rank's did), noise band = ±threshold, widened to include the change
//   when the noise test did not reject it (the change is then indistinguishable from noise),
//   or could not confirm it (unchanged, inconclusive), so a bar's colour always agrees with the
//   row's verdict. Missing and not comparable rows have no bar; they are listed in a table with
//   the reason;
// - "rows": every collective row and every phase row as tables (medians in µs, change, p,
//   verdict, detail);
// - "skew": arrival skew per rank, shown, not judged.
#pragma once

#include "analysis/diff/run_diff.hpp"
#include "output/html/report_model.hpp"

namespace npkit::html {

ReportModel build_diff_report_model(const RunDiff& diff, FailOn fail_on);

}  // namespace npkit::html
