#include "analysis/report/run_report.hpp"

#include <algorithm>

#include "analysis/join/run_cross_rank.hpp"
#include "analysis/proxy/proxy_rank_phases.hpp"
#include "analysis/report/communicator_findings.hpp"
#include "util/saturating.hpp"

namespace npkit {

RunReportSink::RunReportSink(const PhaseAssignment& assignment, std::size_t names)
    : phases(assignment),
      waits(assignment),
      other_ns(names, 0),
      other_phase_(assignment.other_phase) {}

void RunReportSink::on_span(const Span& s) {
  phases.on_span(s);
  waits.on_span(s);
  if (s.track.kind == TrackKind::kGpu && s.phase == other_phase_ && s.base < other_ns.size()) {
    other_ns[s.base] =
        sat_add(other_ns[s.base], std::max<std::int64_t>(0, sat_sub(s.duration_ns(), s.child_ns)));
  }
}

void RunReportSink::merge(RunReportSink&& other) {
  phases.merge(other.phases);
  waits.merge(std::move(other.waits));
  for (std::size_t b = 0; b < other.other_ns.size() && b < other_ns.size(); ++b) {
    other_ns[b] = sat_add(other_ns[b], other.other_ns[b]);
  }
}

RunReport build_run_report(const Run& run, RunReportSink&& sink, bool has_spans,
                           const PhaseAssignment& phases,
                           const std::vector<std::string>& span_names, const Thresholds& thresholds,
                           Diagnostics& diagnostics, bool by_tag) {
  RunReport r;
  r.run = &run;
  r.by_tag = by_tag;
  if (has_spans) {
    PhaseReport p{std::move(sink.phases), {}};
    p.spreads = phase_spreads(p.breakdown.ranks(), phases);
    if (p.breakdown.clamped_spans() > 0) {
      diagnostics.warn("overlapping children",
                       std::to_string(p.breakdown.clamped_spans()) +
                           " span(s) end before their nested events; their own time counts as 0",
                       p.breakdown.clamped_spans());
    }
    for (std::size_t b = 0; b < sink.other_ns.size() && b < span_names.size(); ++b) {
      if (sink.other_ns[b] > 0) r.unassigned.push_back({span_names[b], sink.other_ns[b]});
    }
    std::stable_sort(r.unassigned.begin(), r.unassigned.end(),
                     [](const UnassignedTime& a, const UnassignedTime& b) { return a.ns > b.ns; });
    r.phases.emplace(std::move(p));
    r.waits = phase_waits(sink.waits, phases);
  }
  r.rows = bandwidth_rows(run, "all");
  r.switches = switch_points(r.rows);
  r.latency = latency_distributions(run);
  r.hang = analyze_hang(run);
  const std::vector<RankInfo> infos =
      r.phases ? gpu_phase_infos(r.phases->breakdown.ranks(), phases) : std::vector<RankInfo>{};
  const RunSettings settings(run.config.env);
  for (const auto& comm : run.comms) {
    CommunicatorReport c;
    c.comm = &comm;
    c.cross = analyze_cross_rank(
        cross_rank_input(comm, comm.from_spans ? infos : proxy_rank_phases(comm)), thresholds,
        settings);
    c.findings = communicator_findings(comm, c.cross, r.rows, thresholds, settings);
    c.kernel_phases = kernel_phase_rows(comm, by_tag);
    r.comms.push_back(std::move(c));
  }
  return r;
}

bool RunReport::has_kernel_phases() const {
  return std::any_of(comms.begin(), comms.end(),
                     [](const CommunicatorReport& c) { return !c.kernel_phases.empty(); });
}

double explained_share(const PhaseReport& p) {
  std::int64_t total = 0;
  for (const auto& r : p.breakdown.ranks()) total = sat_add(total, r.gpu_reference_ns);
  std::int64_t other = 0;
  for (const auto& s : p.spreads) {
    if (s.gpu && s.phase == "other") other = s.total_ns;
  }
  return total > 0 ? static_cast<double>(sat_sub(total, other)) / static_cast<double>(total) : 1.0;
}

}  // namespace npkit
