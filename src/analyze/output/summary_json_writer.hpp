// output/summary_json_writer.hpp — a RunSummary as "npkit-summary" version 1 JSON.
// Contract: the layout is documented in docs/cli.md ("npkit-summary version 1"). Every sample is
// written whole ({count, min, max, sum} and either values (exact) or buckets [[low, count], ...]),
// so summary_json_reader.hpp reads back an equal RunSummary. Derived numbers written for readers
// (median_ns, algbw_gbps, busbw_gbps, share) are ignored on reading and recomputed. One row per
// line, so summaries stay small and diff well in version control.
#pragma once

#include <string>

#include "run/summary/run_summary.hpp"

namespace npkit {

void write_summary_json(const RunSummary& summary, std::string& out);

}  // namespace npkit
