// output/bandwidth_columns.hpp — the columns of the bandwidth rows (analysis/bandwidth/
// bandwidth_table.hpp), one spec (output/table_spec.hpp) that `bandwidth`'s text, Markdown, CSV
// and JSON and the report page's tables all render.
// Contract, in column order (text header / CSV and JSON key; where only some views show it):
//   comm (CSV, JSON: comm_key of the row's communicator in `run`, "" when it has none),
//   collective, size (B) / size_bytes, count ("-" for 0 in text), type (text: nccl-tests' name),
//   algo, proto, nranks (CSV, JSON), instances, timed / timed_instances, stale_instances and
//   host_disagree_instances (CSV, JSON), ranks / ranks_timed (text: "timed/nranks"),
//   time (us) / time_ns, algbw (GB/s), busbw (GB/s) (none when untimed), period_pairs (CSV,
//   JSON), period (us), period algbw (not on the page), period busbw (none without a period),
//   true_instances (CSV, JSON), true time (us), true algbw (not on the page), true busbw (none
//   without a true time), channels (CSV, JSON), compute (us) and compute busbw (not on the page;
//   only where a row has a compute time), flags (not on the page). The page leaves out
//   collective too: its tables are one per collective.
#pragma once

#include "analysis/bandwidth/bandwidth_table.hpp"
#include "output/table_spec.hpp"
#include "run/run.hpp"

namespace npkit {

TableSpec<BandwidthRow> bandwidth_columns(const Run& run);

}  // namespace npkit
