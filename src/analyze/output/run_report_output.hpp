// output/run_report_output.hpp — `report` of any input (analysis/report/run_report.hpp) as text,
// Markdown, CSV and JSON ("npkit-analyze.report" version 2, docs/cli.md).
// Contract:
// - Text and Markdown: a head line (path, input kind, files, communicators, event table), the
//   summary (output/report_summary.hpp), where the run stopped (a stalled capture), the findings
//   of every communicator in full, then the detail: the phase split (output/
//   phase_report_output.hpp) with waiting inside phases, or NCCL's kernel phases per rank of
//   each communicator that has them (output/kernel_phase_output.hpp); when the named phases
//   explain less than half of the GPU span time a hint naming the three event names with the
//   most unassigned time and --phase-map; when no span is collective-level, a line saying how to
//   make some. Then per communicator: what its times are, its collectives per rank (instances,
//   timed, total and median time; per user tag and rank with report --by tag), the rank clocks
//   (where the input converts GPU time), the cross-rank sections (output/cross_rank_output.hpp),
//   the NET proxy steps per rank, AlltoAll traffic per peer (when recorded), switch points and
//   latency buckets. A communicator without instances of a run with a benchmark driver's results
//   (a nccl-tests file: Run::driver) says so in a line, and the driver's table follows
//   (output/driver_results_output.hpp; without `wide`, without its count, redop, root, pass and
//   algbw columns). Sections the input cannot fill are left out and named in one last line ("Not
//   in this input: ..."). Durations as readable_duration writes them, sizes as readable_bytes;
//   text wraps at 120 columns.
// - CSV: the phase table (when the input has spans), the per-rank table (communicator, rank,
//   host, clock, instances, timed, GPU time, proxy-step phases), then each communicator's
//   cross-rank table, then the driver's table (where there is one); blank lines between tables.
// - JSON: one shape for every input; fields the input cannot give are absent or empty; a
//   driver's rows are the "driver" member; a communicator with kernel phases has its
//   "kernel_phases" rows.
#pragma once

#include <string>

#include "analysis/report/run_report.hpp"
#include "output/render.hpp"
#include "util/diagnostics.hpp"

namespace npkit {

// What the report says of its input in the head line and the JSON's top fields.
struct ReportInput {
  std::string path;
  std::string event_table;  // "" when the input does not name spans by an event table
  const PhaseAssignment* phases = nullptr;
  const std::vector<std::string>* span_names = nullptr;
  bool wide = false;  // every column of every table (report --wide)
};

void render_run_report(const RunReport& report, const ReportInput& input, OutputFormat format,
                       std::string& out);
void render_run_report_csv(const RunReport& report, std::string& out);
void write_run_report_json(const RunReport& report, const ReportInput& input,
                           const Diagnostics& diagnostics, std::string& out);

}  // namespace npkit
