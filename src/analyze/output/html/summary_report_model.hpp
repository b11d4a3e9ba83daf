// output/html/summary_report_model.hpp — the report model of an npkit summary
// (`npkit-analyze report run.json --format html`; run/summary/run_summary.hpp).
// Contract: build_summary_report_model fills, from one (possibly merged) summary:
// - facts: inputs, formats, NCCL versions, GPUs, hosts, ranks, files, the NCCL_* / NPKIT_*
//   settings with their values (several values when the merged runs differ), warnings counted
//   while summarizing;
// - "bandwidth": per (collective, ranks), in key order, a busbw plot and a time plot against S
//   (nccl-tests' size; log2 axis), one series per algo/proto, y = busbw of the row's time
//   (CollectiveRow::time_ns: each rank's median GPU time, mean over ranks) and that time; busbw
//   as run/measures.hpp defines it (a collective it has no bus factor for, e.g. one not spelled
//   as NCCL names it, has no busbw plot and "-" as busbw); a marker where the algo/proto of
//   consecutive sizes changes; then the rows as a table (size, algo/proto, instances, ranks,
//   time, min / max of the pooled times, busbw);
// - "phases": per (source, domain) the per-rank stacked bars of the phase rows' totals;
// - "waits": per communicator size, each rank's median arrival skew and how often it arrived
//   last, as a table.
// Pow2 size buckets are plotted at their lower bound, and the note says so.
#pragma once

#include "output/html/report_model.hpp"
#include "run/summary/run_summary.hpp"

namespace npkit::html {

ReportModel build_summary_report_model(const RunSummary& summary);

}  // namespace npkit::html
