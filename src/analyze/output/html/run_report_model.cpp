#include "output/html/run_report_model.hpp"

#include <fmt/format.h>

#include "output/html/bandwidth_blocks.hpp"
#include "output/html/cross_rank_blocks.hpp"
#include "output/html/phase_bars.hpp"
#include "output/html/svg.hpp"
#include "output/run_text.hpp"

namespace npkit::html {
namespace {

std::string format_of(const std::vector<InputFact>& facts) {
  for (const auto& f : facts) {
    if (f.name == "format") return f.value;
  }
  return "run";
}

Section phase_section(const RunReportInput& in) {
  Section phases{"phases", "Phases per rank", {}};
  if (!in.report->phases) {
    phases.blocks.emplace_back(Paragraph{
        "No phase split: this input holds no spans below the collectives (" + format_of(in.facts) +
        "); the sections below come from its collective instances."});
    return phases;
  }
  const auto& ranks = in.report->phases->breakdown.ranks();
  phases.blocks.emplace_back(
      phase_bars(*in.phases, ranks, true, "GPU time per rank by phase", "top-level GPU span"));
  if (has_cpu_time(ranks)) {
    phases.blocks.emplace_back(
        phase_bars(*in.phases, ranks, false, "CPU proxy time per rank by phase", "CPU span"));
  }
  return phases;
}

}  // namespace

ReportModel build_run_report_model(RunReportInput in) {
  const RunReport& report = *in.report;
  ReportModel m;
  m.title = "npkit-analyze report: " + in.path;
  m.subtitle = format_of(in.facts);
  m.facts.push_back({"input", in.path});
  for (const auto& f : in.facts) m.facts.push_back({f.name, f.value});
  for (const auto& c : report.comms) {
    m.facts.push_back({"communicator", describe_communicator(*c.comm)});
  }
  m.warnings = std::move(in.warnings);
  m.reduction = std::move(in.reduction);

  std::vector<npkit::Finding> findings;
  for (const auto& c : report.comms)
    findings.insert(findings.end(), c.findings.begin(), c.findings.end());
  Section diagnosis{"findings", "Findings", {}};
  diagnosis.blocks.emplace_back(finding_list(findings));
  m.sections.push_back(std::move(diagnosis));
  m.sections.push_back(phase_section(in));

  Section bandwidth{"bandwidth", "Bandwidth and latency vs size", {}};
  bandwidth.blocks = bandwidth_blocks(report.rows, report.switches, *report.run);
  if (report.rows.empty()) {
    bandwidth.blocks.emplace_back(
        Paragraph{"No collective instances (e.g. ALL_REDUCE_RING spans or Coll events) to time."});
  }
  m.sections.push_back(std::move(bandwidth));

  Section waits{"waits", "Stragglers and waits", {}};
  for (const auto& c : report.comms) {
    if (report.comms.size() > 1) {
      waits.blocks.emplace_back(Paragraph{describe_communicator(*c.comm) + ":"});
    }
    for (auto& b : cross_rank_blocks(c.cross, m.reduction)) waits.blocks.push_back(std::move(b));
  }
  m.sections.push_back(std::move(waits));

  Section timeline{"timeline", "Timeline of one collective instance", {}};
  if (in.timeline) {
    timeline.blocks.emplace_back(std::move(*in.timeline));
  } else {
    timeline.blocks.emplace_back(Paragraph{in.timeline_absent});
  }
  m.sections.push_back(std::move(timeline));
  return m;
}

}  // namespace npkit::html
