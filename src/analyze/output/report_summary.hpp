// output/report_summary.hpp — what a report says first (text and Markdown): what ran, where it
// stopped, each finding in one line, the ranks that hold the others back, collectives left
// untimed, and the key number of each collective.
// Contract:
// - render_report_summary writes "Summary" and at most about 20 lines under it: per communicator
//   (the first four; a count of the rest) its ranks, hosts and instances per collective; a
//   stalled communicator's verdict; each finding's headline (the first six; a count of the rest);
//   per communicator with cross-rank sync, the rank arriving last most often and the rank that
//   waits the largest share of its time; collectives without a timed instance; then a table of
//   the collectives (per communicator where there are several) with their instances, timed
//   instances and the row of the best busbw (GPU span, nccl-tests conventions) among the rows
//   without flags (BandwidthRow::flags): busbw, size, time per operation, algorithm/protocol; where
//   every timed row has flags, "-" and "no unflagged row (best flagged: its flags)". A nccl-tests
//   results file gives the best out-of-place busbw per collective instead.
#pragma once

#include <string>

#include "analysis/report/run_report.hpp"
#include "output/render.hpp"

namespace npkit {

void render_report_summary(const RunReport& report, OutputFormat format, std::string& out);

}  // namespace npkit
