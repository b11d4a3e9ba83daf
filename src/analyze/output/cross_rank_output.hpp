// output/cross_rank_output.hpp — the cross-rank sections of `report` (clock alignment, join
// gaps, sync per collective and per rank, stragglers, phase imbalance, findings) in every output
// format.
// Contract:
// - append_cross_rank_text: kTable and kMarkdown append the sections as tables and lines
//   (render_table / render_line; durations as readable_duration writes them) and add to
//   `missing` what the input could not show (sync without start times, or without an instance
//   on two ranks); kCsv appends one table, cross_rank_csv's; kJson appends nothing (use
//   write_cross_rank_json).
// - write_cross_rank_json writes, into the open object, the keys time_source, alignment,
//   join_gaps, sync, imbalance and, with `with_findings`, findings (schema: docs/cli.md,
//   "Cross-rank sections").
// - append_findings / write_findings_json render findings alone (a report that gathers them from
//   several analyses); findings_json writes the "findings" key.
#pragma once

#include <string>
#include <vector>

#include "analysis/report/cross_rank_report.hpp"
#include "output/json_writer.hpp"
#include "output/render.hpp"

namespace npkit {

void append_cross_rank_text(const CrossRankAnalysis& analysis, OutputFormat format,
                            std::string& out, std::vector<std::string>& missing);
TextTable cross_rank_csv(const CrossRankAnalysis& analysis);
void write_cross_rank_json(const CrossRankAnalysis& analysis, JsonWriter& w,
                           bool with_findings = true);

void append_findings(const std::vector<Finding>& findings, OutputFormat format, std::string& out);
void write_findings_json(const std::vector<Finding>& findings, JsonWriter& w);

}  // namespace npkit
