// commands/cross_rank_output.hpp — the cross-rank sections of `report` (clock alignment, join
// gaps, sync per collective and per rank, stragglers, phase imbalance, findings) in every output
// format, and the legacy-dump entry point that computes them.
// Contract:
// - append_cross_rank_text: kTable and kMarkdown append the sections as tables and lines
//   (render_table / render_line); kCsv appends one table, cross_rank_csv's; kJson appends
//   nothing (use write_cross_rank_json).
// - write_cross_rank_json writes, into the open object, the keys time_source, alignment,
//   join_gaps, sync, imbalance and, with `with_findings`, findings (schema: docs/cli.md,
//   "Cross-rank sections").
// - append_findings / write_findings_json render findings alone (a report that gathers them from
//   several analyses); findings_json writes the "findings" key.
// - render_block / render_section_line: a table, or a line that opens a section, preceded by a
//   blank line in text (kTable); as render_table / render_line otherwise. Lines that annotate the
//   table above them use render_line.
// - legacy_cross_rank reads the dump's top-level collective spans (a second pass with
//   CollectiveSpans on the --threads readers; its reader warnings repeat the first pass's
//   and are not added to loaded.diagnostics again), joins them by occurrence, attaches each
//   rank's GPU phase totals (exclusive time per phase, reference = the rank's GPU collective
//   time) and runs analyze_cross_rank. Legacy dumps carry no hostname: one host is assumed and
//   the alignment section says so.
#pragma once

#include <map>

#include <string>
#include <vector>

#include "analysis/phases/phase_breakdown.hpp"
#include "analysis/sync/cross_rank_report.hpp"
#include "commands/command.hpp"
#include "import/npkt/event_records.hpp"

namespace npkit::cli {

void append_cross_rank_text(const CrossRankAnalysis& analysis, OutputFormat format,
                            std::string& out);
TextTable cross_rank_csv(const CrossRankAnalysis& analysis);
void write_cross_rank_json(const CrossRankAnalysis& analysis, JsonWriter& w,
                           bool with_findings = true);

void append_findings(const std::vector<Finding>& findings, OutputFormat format, std::string& out);
void write_findings_json(const std::vector<Finding>& findings, JsonWriter& w);

Result<CrossRankAnalysis> legacy_cross_rank(LoadedDump& loaded, const CommonOptions& options,
                                            const std::vector<RankPhases>& phases,
                                            const Thresholds& thresholds);

Result<CrossRankAnalysis> event_cross_rank(const EventRecords& events,
                                           const std::map<std::int32_t, std::string>& hosts,
                                           const CommonOptions& options,
                                           const std::vector<RankPhases>& phases,
                                           const Thresholds& thresholds);

}  // namespace npkit::cli
