// output/latency_columns.hpp — the columns of the latency distributions (analysis/bandwidth/
// bandwidth_table.hpp's LatencyBucket), one spec (output/table_spec.hpp) for `report`'s text,
// Markdown and JSON.
// Contract, in column order (text header / CSV and JSON key): collective, algo and proto ("-" in
// text where the input names none), bucket / bucket_bytes (text: readable_bytes), count, then
// min, p10, p50, p90, p99 and max / the same with "_ns" (text: readable_duration).
#pragma once

#include "analysis/bandwidth/bandwidth_table.hpp"
#include "output/table_spec.hpp"

namespace npkit {

TableSpec<LatencyBucket> latency_columns();

}  // namespace npkit
