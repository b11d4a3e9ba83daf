// output/html/run_report_model.hpp — the report model of any input, from `report`'s one result
// (analysis/report/run_report.hpp).
// Contract: build_run_report_model fills
// - facts: the input's own (Run::facts), then its communicators;
// - "findings": the findings of every communicator;
// - "phases": GPU time per rank by phase (exclusive time of every span; "other" shown, the share
//   the named phases explain in the note) and the same for CPU tracks when there are any (an
//   input without spans says so in one paragraph) and the waiting inside the phases per rank (a
//   table, analysis/sync/phase_wait.hpp); then per communicator its ranks' time by
//   collective and, for communicators of NCCL (with a hash), their NET proxy-step time by phase
//   and the ring AllReduce split (a paragraph where there are no proxy steps);
// - "bandwidth": bandwidth_blocks over the collective rows and switch points;
// - "waits": per communicator its cross-rank analysis as cross_rank_blocks (headed by the
//   communicator when there are several);
// - "timeline": `timeline`, else a paragraph with `timeline_absent`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/report/run_report.hpp"
#include "output/html/report_model.hpp"
#include "run/input_details.hpp"

namespace npkit::html {

struct RunReportInput {
  std::string path;
  std::vector<InputFact> facts;
  const PhaseAssignment* phases = nullptr;
  const RunReport* report = nullptr;
  std::vector<std::string> warnings;
  std::optional<Timeline> timeline;
  std::string timeline_absent;  // why there is no timeline
  std::vector<std::string> reduction;
};

ReportModel build_run_report_model(RunReportInput input);

}  // namespace npkit::html
