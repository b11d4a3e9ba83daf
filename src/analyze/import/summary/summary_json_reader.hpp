// import/summary/summary_json_reader.hpp — reads "npkit-summary" version 1 JSON back into a
// RunSummary. Contract:
// - Never throws or crashes on hostile bytes; anything that is not a well-formed version-1
//   summary is an Error "NAME: offset N: what was expected" with N the byte offset of the
//   offending value, key or character (malformed UTF-8, a control character or an unclosed
//   string, bad JSON structure, a wrong type, a missing or duplicate field, an inconsistent
//   sample, a duplicate row). A newer schema_version is refused with the version named.
// - Unknown fields are skipped (fields are only ever added within a version); derived fields
//   (median_ns, algbw_gbps, busbw_gbps, share, sample_cap) are not needed.
// - Samples are checked: count equals the values given (or the bucket counts' sum), min/max/sum
//   match the values, buckets are valid lower bounds in increasing order with min and max inside
//   the first and last bucket. Rows are sorted by key; per-rank entries by rank (no duplicates).
// - The result equals what write_summary_json was given, for any RunSummary it wrote.
#pragma once

#include <string>
#include <string_view>

#include "run/summary/run_summary.hpp"
#include "util/result.hpp"

namespace npkit {

Result<RunSummary> parse_summary(const std::string& name, std::string_view text);
Result<RunSummary> read_summary_file(const std::string& path);

// True when `prefix` (the file's first bytes, 64 are enough) opens a JSON object whose first key
// is "schema" with the value "npkit-summary", as summaries are written: other JSON (a Chrome
// trace, say) is not taken for a summary.
bool looks_like_summary(std::string_view prefix);

// True when `path` is a regular file (not a directory, FIFO or device) whose first bytes
// looks_like_summary.
bool is_summary_file(const std::string& path);

}  // namespace npkit
