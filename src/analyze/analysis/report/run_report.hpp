// analysis/report/run_report.hpp — what `report` computes of a run, whatever it was read from:
// the phase split of its spans, the event names left unassigned, per communicator the
// cross-rank analysis and findings, and the bandwidth rows, switch points and latency buckets.
// The text, JSON and HTML renderings all read this one result.
// Contract:
// - RunReportSink is a SpanSink: the phase split (analysis/phases/phase_breakdown.hpp), the
//   phase times per collective instance and rank (PhaseWaitSink) and the exclusive GPU time of
//   the spans left in "other", by span name; sinks of disjoint tracks merge in order.
// - build_run_report: `phases` and `waits` (analysis/sync/phase_wait.hpp) are set when the
//   input has spans (the spreads computed; spans
//   whose children overlap beyond their end are an "overlapping children" warning into
//   `diagnostics`); `unassigned` lists the names with unassigned time, most first. Per
//   communicator of the run (in run order): the cross-rank analysis — the ranks' GPU phase
//   totals attached to the communicator without a hash (the one of span inputs), the ranks' NET
//   proxy-step phases to the others (analysis/proxy/proxy_rank_phases.hpp) — and its
//   findings (analysis/report/communicator_findings.hpp); rows, switch points and latency
//   over the whole run (analysis/bandwidth/bandwidth_table.hpp); where the run stopped
//   (analysis/hang/stall.hpp), which renderers show when a communicator ends with work in flight.
//   Per communicator also NCCL's kernel phases per rank (analysis/phases/kernel_phase_summary.hpp;
//   per tag and rank when `by_tag`, which the report keeps for its renderers).
// - explained_share: the share of the GPU span time in a named phase (1 without GPU time).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/bandwidth/bandwidth_table.hpp"
#include "analysis/diagnose/findings.hpp"
#include "analysis/diagnose/thresholds.hpp"
#include "analysis/hang/stall.hpp"
#include "analysis/phases/kernel_phase_summary.hpp"
#include "analysis/phases/phase_breakdown.hpp"
#include "analysis/report/cross_rank_report.hpp"
#include "analysis/sync/phase_wait.hpp"
#include "run/run.hpp"
#include "util/diagnostics.hpp"

namespace npkit {

struct PhaseReport {
  PhaseBreakdownSink breakdown;
  std::vector<PhaseSpread> spreads;
};

class RunReportSink : public SpanSink {
 public:
  RunReportSink(const PhaseAssignment& phases, std::size_t names);
  void on_span(const Span& span) override;
  void merge(RunReportSink&& other);

  PhaseBreakdownSink phases;
  PhaseWaitSink waits;
  std::vector<std::int64_t> other_ns;  // by span base name

 private:
  std::uint16_t other_phase_;
};

struct UnassignedTime {
  std::string name;
  std::int64_t ns = 0;
};

struct CommunicatorReport {
  const RunCommunicator* comm = nullptr;
  CrossRankAnalysis cross;
  std::vector<Finding> findings;
  std::vector<KernelPhaseRow> kernel_phases;
};

struct RunReport {
  const Run* run = nullptr;
  std::optional<PhaseReport> phases;
  std::optional<PhaseWaits> waits;         // with phases: waiting inside them
  std::vector<UnassignedTime> unassigned;  // most time first
  std::vector<CommunicatorReport> comms;
  std::vector<BandwidthRow> rows;
  std::vector<SwitchPoint> switches;
  std::vector<LatencyBucket> latency;
  HangAnalysis hang;
  bool by_tag = false;  // report --by tag: per-rank tables grouped by user tag too

  bool has_kernel_phases() const;
};

// `thresholds`: the findings' (analysis/diagnose/thresholds.hpp; report --threshold).
RunReport build_run_report(const Run& run, RunReportSink&& sink, bool has_spans,
                           const PhaseAssignment& phases,
                           const std::vector<std::string>& span_names, const Thresholds& thresholds,
                           Diagnostics& diagnostics, bool by_tag = false);

double explained_share(const PhaseReport& report);

}  // namespace npkit
