// summary_test_support.hpp — test helpers for summaries: a .npkt directory summarized through
// the library (read, capture, join, summarize_npkt), and small synthetic summaries.
// Contract: summarize_npkt_dir REQUIREs that every file reads; `label` is recorded as the input.
// synthetic_row builds a collective row whose rank r holds durations[r].
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "run/summary/run_summary.hpp"

namespace npkit::test {

RunSummary summarize_npkt_dir(const std::string& dir, const std::string& label);
// The same for an explicit list of .npkt files (e.g. one rank's file).
RunSummary summarize_npkt_files(const std::vector<std::string>& files, const std::string& label);

CollectiveRow synthetic_row(const std::string& collective, std::uint64_t size,
                            const std::string& algo, const std::string& proto,
                            const std::vector<std::vector<std::int64_t>>& durations);

}  // namespace npkit::test
