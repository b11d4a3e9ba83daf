// output/html/legacy_report_model.hpp — the report model of a legacy NPKit dump directory.
// Contract: build_legacy_report_model fills, from what the legacy report and bandwidth analyses
// computed over one pass of the dump:
// - facts: input, dump variant, ranks, GPU buffers and CPU channels read, event table, CPU
//   record size, clock sources (legacy dumps carry no host, GPU or NCCL metadata: said so);
// - "phases": GPU time per rank by phase (exclusive time of every span, phases/phase_breakdown;
//   "other" shown, the share the named phases explain in the note) and the same for CPU proxy
//   channels when there are any;
// - "bandwidth": bandwidth_blocks over the collective rows and switch points;
// - "waits": the cross-rank analysis as cross_rank_blocks, when given;
// - "timeline": `timeline`, else a paragraph with `timeline_absent`;
// - "findings": the cross-rank analysis' findings.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/bandwidth/bandwidth_table.hpp"
#include "analysis/phases/phase_breakdown.hpp"
#include "analysis/sync/cross_rank_report.hpp"
#include "import/legacy/legacy_dump.hpp"
#include "output/html/report_model.hpp"

namespace npkit::html {

struct LegacyReportInput {
  std::string path;
  const LegacyDump* dump = nullptr;
  const PhaseAssignment* phases = nullptr;
  const std::vector<RankPhases>* ranks = nullptr;
  std::vector<BandwidthRow> bandwidth;
  std::vector<SwitchPoint> switches;
  std::vector<std::string> warnings;
  const CrossRankAnalysis* cross = nullptr;
  std::optional<Timeline> timeline;
  std::string timeline_absent;  // why there is no timeline
  std::vector<std::string> reduction;
};

ReportModel build_legacy_report_model(LegacyReportInput input);

}  // namespace npkit::html
