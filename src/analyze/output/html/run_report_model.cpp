#include "output/html/run_report_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "output/hang_output.hpp"
#include "output/html/bandwidth_blocks.hpp"
#include "output/html/cross_rank_blocks.hpp"
#include "output/html/phase_bars.hpp"
#include "output/html/svg.hpp"
#include "output/kernel_phase_output.hpp"
#include "output/run_text.hpp"

namespace npkit::html {
namespace {

std::string format_of(const std::vector<InputFact>& facts) {
  for (const auto& f : facts) {
    if (f.name == "format") return f.value;
  }
  return "run";
}

// Per rank, the summed time of its timed members by collective (a Send/Recv pair: Send on the
// sender, Recv on the receiver).
void collective_bars(const RunCommunicator& comm, const std::string& of, std::vector<Block>& out) {
  StackedBars funcs;
  funcs.title = "GPU time per rank by collective" + of;
  funcs.note =
      "Summed times of the rank's operations (" + comm.time_source + "), by NCCL function.";
  std::map<std::int32_t, std::map<std::string, double>> by_rank;
  for (const auto& inst : comm.instances) {
    for (const auto& m : inst.members) {
      if (!m.timed) continue;
      const std::string name = inst.op_on(m.rank);
      if (std::find(funcs.segments.begin(), funcs.segments.end(), name) == funcs.segments.end()) {
        funcs.segments.push_back(name);
      }
      by_rank[m.rank][name] += static_cast<double>(m.duration_ns());
    }
  }
  if (funcs.segments.empty()) {
    out.emplace_back(Paragraph{"No timed collective" + of + "."});
    return;
  }
  for (const auto& r : comm.ranks) {
    funcs.bars.push_back(fmt::format("rank {}", r.rank));
    std::vector<double> v;
    for (const auto& name : funcs.segments) v.push_back(by_rank[r.rank][name]);
    funcs.values.push_back(std::move(v));
  }
  out.emplace_back(std::move(funcs));
}

void proxy_bars(const RunCommunicator& comm, const std::string& of, std::vector<Block>& out) {
  bool any_ring = false;
  StackedBars net;
  net.title = "Proxy step time per rank by phase" + of;
  net.note =
      "NET proxy steps cut by their states: net_send = SendWait; net_recv = RecvWait + "
      "RecvFlushWait; sync = SendGPUWait + SendPeerWait + RecvGPUWait; other = the rest.";
  net.segments = {"net_send", "net_recv", "sync", "other"};
  StackedBars ring;
  ring.title = "Ring AllReduce proxy steps per rank: reduce_scatter / all_gather" + of;
  ring.note =
      "First n−1 ring steps of each 2(n−1)-step loop: reduce_scatter; last n−1: all_gather; "
      "steps of other operations: other.";
  ring.segments = {"reduce_scatter", "all_gather", "other"};
  for (const auto& r : comm.ranks) {
    if (!r.proxy) continue;
    const ProxyStepBreakdown& b = *r.proxy;
    any_ring = any_ring || b.ring_allreduce_steps > 0;
    net.bars.push_back(fmt::format("rank {}", r.rank));
    net.values.push_back({static_cast<double>(b.net_send_ns), static_cast<double>(b.net_recv_ns),
                          static_cast<double>(b.sync_ns), static_cast<double>(b.other_ns)});
    ring.bars.push_back(fmt::format("rank {}", r.rank));
    ring.values.push_back({static_cast<double>(b.reduce_scatter_ns),
                           static_cast<double>(b.all_gather_ns),
                           static_cast<double>(b.not_ring_allreduce_ns)});
  }
  if (net.bars.empty()) {
    out.emplace_back(Paragraph{"No proxy steps" + of +
                               ": the phase split of NET proxy steps needs NET transport (and "
                               "proxy events recorded)."});
    return;
  }
  out.emplace_back(std::move(net));
  if (any_ring) out.emplace_back(std::move(ring));
}

// Waiting inside the phases, per rank and phase (analysis/sync/phase_wait.hpp).
Table wait_table(const PhaseWaits& w) {
  Table t;
  t.table.title = "Waiting inside phases per rank";
  t.table.columns = {"rank", "phase", "time (us)", "waiting (us)", "share"};
  for (const auto& r : w.ranks) {
    t.table.add_row({std::to_string(r.rank), r.phase, format_number(r.time_ns / 1e3),
                     format_number(r.wait_ns / 1e3),
                     fmt::format("{:.1f}%", r.time_ns > 0 ? 100.0 * static_cast<double>(r.wait_ns) /
                                                                static_cast<double>(r.time_ns)
                                                          : 0.0)});
  }
  t.note = fmt::format(
      "Over {} instance(s) held by two or more ranks: a rank's time in the phase beyond the least "
      "any rank spent in it at the same instance (docs/phases.md, \"Waiting inside phases\").",
      w.instances);
  return t;
}

// NCCL's kernel phases per rank (per tag and rank with report --by tag) as stacked bars.
StackedBars kernel_phase_bars(const std::vector<KernelPhaseRow>& rows, const std::string& of,
                              bool by_tag) {
  StackedBars bars;
  bars.title = "GPU time per rank by kernel phase" + of;
  bars.note =
      "Each phase summed over the rank's timed operations with KernelPhase events (profiler API "
      "v7).";
  for (const auto name : kKernelPhaseNames) bars.segments.emplace_back(name);
  for (const auto& r : rows) {
    bars.bars.push_back(by_tag ? fmt::format("tag {} rank {}", r.tag, r.rank)
                               : fmt::format("rank {}", r.rank));
    std::vector<double> v;
    for (const std::int64_t ns : r.ns) v.push_back(static_cast<double>(ns));
    bars.values.push_back(std::move(v));
  }
  return bars;
}

Section phase_section(const RunReportInput& in) {
  Section phases{"phases", "Time per rank", {}};
  if (!in.report->phases && in.report->has_kernel_phases()) {
    for (const auto& c : in.report->comms) {
      if (c.kernel_phases.empty()) continue;
      const bool several = in.report->comms.size() > 1;
      phases.blocks.emplace_back(kernel_phase_bars(
          c.kernel_phases, several ? " (" + comm_key(*c.comm) + ")" : "", in.report->by_tag));
      phases.blocks.emplace_back(Table{
          kernel_phase_table(c.kernel_phases, several ? comm_key(*c.comm) : "", in.report->by_tag),
          "The input holds no spans below the collectives; NCCL's KernelPhase events split each "
          "timed operation's GPU time into initial_sync, compute and final_sync "
          "(docs/phases.md)."});
    }
  } else if (!in.report->phases) {
    phases.blocks.emplace_back(Paragraph{
        "No phase split: this input holds no spans below the collectives (" + format_of(in.facts) +
        "); the sections below come from its collective instances."});
  } else {
    const auto& ranks = in.report->phases->breakdown.ranks();
    phases.blocks.emplace_back(
        phase_bars(*in.phases, ranks, true, "GPU time per rank by phase", "top-level GPU span"));
    if (has_cpu_time(ranks)) {
      phases.blocks.emplace_back(
          phase_bars(*in.phases, ranks, false, "CPU time per rank by phase", "CPU span"));
    }
    if (in.report->waits && in.report->waits->instances > 0) {
      phases.blocks.emplace_back(wait_table(*in.report->waits));
    }
  }
  const auto& comms = in.report->comms;
  for (const auto& c : comms) {
    const std::string of = comms.size() > 1 ? " (" + comm_key(*c.comm) + ")" : "";
    collective_bars(*c.comm, of, phases.blocks);
    const bool records_proxy = !c.comm->from_spans && !in.report->run->driver_only;
    if (records_proxy) proxy_bars(*c.comm, of, phases.blocks);
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
  if (report.hang.worth_reporting()) {
    Section stopped{"stopped", "Where it stopped", {}};
    for (const auto& c : report.hang.comms) {
      stopped.blocks.emplace_back(Paragraph{c.comm->scope + ": " + c.verdict});
      stopped.blocks.emplace_back(Table{npkit::hang_rank_table(c), ""});
    }
    m.sections.push_back(std::move(stopped));
  }
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
