// summary_test_support.hpp — test helpers for summaries: an input summarized through the library
// as `summarize` does it (open_run_input, read_run, summarize_run), and small synthetic summaries.
// Contract: summarize_path REQUIREs that the input reads; `label` is recorded as the input.
// synthetic_row builds a collective row whose rank r holds durations[r].
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "run/summary/run_summary.hpp"

namespace npkit::test {

// `path`: any input (a .npkt file or directory, a legacy dump, a Chrome trace).
RunSummary summarize_path(const std::string& path, const std::string& label);

CollectiveRow synthetic_row(const std::string& collective, std::uint64_t size,
                            const std::string& algo, const std::string& proto,
                            const std::vector<std::vector<std::int64_t>>& durations);

}  // namespace npkit::test
