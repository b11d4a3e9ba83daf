// commands/run_report.hpp — `report` of the inputs read through the run model alone: legacy
// NPKit dumps and Chrome traces (of NPKit spans or of profiler events).
// Contract: one pass over the input's spans gives the phase split (as commands/command.hpp
// renders it) and the run; then per communicator its collectives per rank (count, timed, total
// and median time from the run's instances), the cross-rank analysis (its ranks' GPU phase
// totals attached), switch points and latency buckets, and the findings of every communicator
// (analysis/diagnose/communicator_findings.hpp). When the named phases explain less than half of
// the GPU span time, a hint names the three event names with the most unassigned time and
// --phase-map. An input without spans says so in one line instead of the phase tables.
// Formats: text and Markdown; CSV: the phase table, then each communicator's cross-rank table;
// JSON: "npkit-analyze.report" version 1 (docs/cli.md).
#pragma once

#include "commands/command.hpp"

namespace npkit::cli {

Result<int> run_run_report(const CommonOptions& options, CliContext& context);

}  // namespace npkit::cli
