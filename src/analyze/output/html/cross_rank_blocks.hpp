// output/html/cross_rank_blocks.hpp — the cross-rank analysis
// (analysis/report/cross_rank_report.hpp) as report blocks: who arrives late and who waits, per
// rank and per collective instance. Contract (times are the input's plus each rank's host offset,
// as analyze_sync uses them):
// - lateness heatmap: rank × instance (input order), a cell = the rank's arrival minus the
//   instance's first arrival — the straggler's cells are dark;
// - wait heatmap: a cell = the rank's wait, last arrival minus its arrival capped by its own
//   duration (instance_sync.hpp) — the ranks that wait are dark;
//   both NaN where the rank is not in the instance, or the instance has fewer than two ranks;
//   columns bucketed to at most `max_columns` ("#first … #last (k instances)") and rows (ranks
//   0..nranks−1) to at most `max_rows` ("ranks a–b"), each bucket showing its largest value: the
//   notes and `reduction` say so;
// - tables: per rank (sync), per collective, host clock alignment (with more than one host),
//   phase imbalance (when ranks have phases), join gaps (when any);
// - finding_list turns diagnosis findings into a list: title = the finding's summary, severity =
//   its rule, evidence = its scope and numbers, next step as given.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "analysis/diagnose/findings.hpp"
#include "analysis/report/cross_rank_report.hpp"
#include "output/html/report_model.hpp"

namespace npkit::html {

std::vector<Block> cross_rank_blocks(const CrossRankAnalysis& analysis,
                                     std::vector<std::string>& reduction,
                                     std::size_t max_columns = 60, std::size_t max_rows = 64);

FindingList finding_list(const std::vector<npkit::Finding>& findings);

}  // namespace npkit::html
