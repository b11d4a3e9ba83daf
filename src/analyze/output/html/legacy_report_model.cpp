#include "output/html/legacy_report_model.hpp"

#include <fmt/format.h>

#include <map>

#include "output/html/bandwidth_blocks.hpp"
#include "output/html/cross_rank_blocks.hpp"
#include "output/html/phase_bars.hpp"
#include "output/html/svg.hpp"

namespace npkit::html {
namespace {

std::vector<Fact> facts(const LegacyReportInput& in) {
  const LegacyDump& d = *in.dump;
  std::vector<Fact> out;
  out.push_back({"input", in.path});
  out.push_back({"format", d.variant.empty() ? "NPKit dump directory" : d.variant});
  std::size_t gpu = 0;
  std::size_t cpu = 0;
  for (const auto& r : d.layout.ranks) {
    gpu += r.gpu.size();
    cpu += r.cpu.size();
  }
  out.push_back({"ranks", fmt::format("{} ({} GPU buffer file(s), {} CPU channel file(s))",
                                      d.layout.ranks.size(), gpu, cpu)});
  out.push_back(
      {"event table",
       d.table.label() + (d.table_reason.empty() ? std::string() : " (" + d.table_reason + ")")});
  out.push_back(
      {"CPU record size", fmt::format("{} bytes ({})", d.cpu_record_size, d.cpu_record_reason)});
  std::map<std::string, std::size_t> gpu_clocks;
  std::map<std::string, std::size_t> cpu_clocks;
  for (const auto& c : d.clocks) {
    ++gpu_clocks[c.gpu_source];
    ++cpu_clocks[c.cpu_source];
  }
  auto join = [](const std::map<std::string, std::size_t>& m) {
    std::string s;
    for (const auto& [k, n] : m) s += fmt::format("{}{} ({} rank(s))", s.empty() ? "" : "; ", k, n);
    return s;
  };
  out.push_back({"GPU clock", join(gpu_clocks)});
  out.push_back({"CPU clock", join(cpu_clocks)});
  out.push_back({"hosts, GPUs, NCCL",
                 "not recorded: NPKit dumps carry no metadata (all ranks are treated as one "
                 "host)"});
  return out;
}

}  // namespace

ReportModel build_legacy_report_model(LegacyReportInput in) {
  ReportModel m;
  m.title = "npkit-analyze report: " + in.path;
  m.subtitle = "NPKit dump directory";
  m.facts = facts(in);
  m.warnings = std::move(in.warnings);
  m.reduction = std::move(in.reduction);
  Section phases{"phases", "Phases per rank", {}};
  phases.blocks.emplace_back(
      phase_bars(*in.phases, *in.ranks, true, "GPU time per rank by phase", "top-level GPU span"));
  if (has_cpu_time(*in.ranks)) {
    phases.blocks.emplace_back(
        phase_bars(*in.phases, *in.ranks, false, "CPU proxy time per rank by phase", "CPU span"));
  }
  Section bandwidth{"bandwidth", "Bandwidth and latency vs size", {}};
  bandwidth.blocks = bandwidth_blocks(in.bandwidth, in.switches);
  if (in.bandwidth.empty()) {
    bandwidth.blocks.emplace_back(
        Paragraph{"No collective-level spans (e.g. ALL_REDUCE_RING) to time."});
  }
  Section diagnosis{"findings", "Findings", {}};
  diagnosis.blocks.emplace_back(
      finding_list(in.cross ? in.cross->findings : std::vector<npkit::Finding>{}));
  m.sections.push_back(std::move(diagnosis));
  m.sections.push_back(std::move(phases));
  m.sections.push_back(std::move(bandwidth));
  if (in.cross != nullptr) {
    Section waits{"waits", "Stragglers and waits", cross_rank_blocks(*in.cross, m.reduction)};
    m.sections.push_back(std::move(waits));
  }
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
