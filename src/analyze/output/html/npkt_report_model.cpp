#include "output/html/npkt_report_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <map>
#include <set>

#include "analysis/bandwidth/bandwidth_table.hpp"
#include "analysis/diagnose/communicator_findings.hpp"
#include "analysis/diagnose/findings.hpp"
#include "analysis/join/run_cross_rank.hpp"
#include "analysis/proxy/proxy_rank_phases.hpp"
#include "analysis/sync/cross_rank_report.hpp"
#include "import/npkt/npkt_run.hpp"
#include "import/npkt/profiler_rank_summary.hpp"
#include "import/npkt/proxy_step_breakdown.hpp"
#include "output/html/bandwidth_blocks.hpp"
#include "output/html/cross_rank_blocks.hpp"
#include "output/html/instance_choice.hpp"
#include "output/html/npkt_timeline.hpp"
#include "output/html/phase_bars.hpp"
#include "output/html/svg.hpp"
#include "run/nccl_names.hpp"
#include "run/nccl_tests_convention.hpp"

namespace npkit::html {
namespace {

// "a (2 ranks), b (1 rank)" of the distinct non-empty values, in first-seen order.
std::string distinct(const std::vector<const RankCapture*>& files,
                     const std::string& (*value)(const RankCapture&)) {
  std::vector<std::string> order;
  std::map<std::string, std::size_t> count;
  for (const RankCapture* f : files) {
    const std::string& v = value(*f);
    if (v.empty()) continue;
    if (count[v]++ == 0) order.push_back(v);
  }
  std::string out;
  for (const auto& v : order) {
    out += fmt::format("{}{} ({} file{})", out.empty() ? "" : ", ", v, count[v],
                       count[v] == 1 ? "" : "s");
  }
  return out.empty() ? "unknown" : out;
}

const std::string& host_of(const RankCapture& c) {
  return c.dump.meta("hostname");
}
const std::string& gpu_of(const RankCapture& c) {
  return c.dump.meta("gpu.name");
}
const std::string& nccl_of(const RankCapture& c) {
  return c.dump.meta("nccl.version");
}
const std::string& events_of(const RankCapture& c) {
  return c.dump.meta("capture.events");
}

std::string utc(std::int64_t ns) {
  const std::time_t secs = static_cast<std::time_t>(ns / 1000000000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  return fmt::format("{}.{:03} UTC", buf, (ns % 1000000000) / 1000000);
}

std::vector<Fact> facts(const NpktReportInput& in) {
  std::vector<Fact> out;
  out.push_back({"input", fmt::format("{} ({} file(s), {} communicator(s))", in.path,
                                      in.files.size(), in.comms->size())});
  std::string comms;
  for (const auto& c : *in.comms) {
    comms += fmt::format("{}{:016x}{}: {} of {} rank(s)", comms.empty() ? "" : "; ", c.comm_hash,
                         c.name.empty() ? "" : " (" + c.name + ")", c.ranks.size(), c.nranks);
    if (!c.absent_ranks.empty()) comms += fmt::format(", {} absent", c.absent_ranks.size());
  }
  out.push_back({"communicators", comms.empty() ? "none" : comms});
  out.push_back({"hosts", distinct(in.files, host_of)});
  out.push_back({"GPUs", distinct(in.files, gpu_of)});
  std::set<std::uint32_t> apis;
  for (const RankCapture* f : in.files) apis.insert(f->dump.comm.profiler_api);
  std::string api;
  for (auto a : apis) api += fmt::format("{}v{}", api.empty() ? "" : ", ", a);
  out.push_back({"NCCL", distinct(in.files, nccl_of) + "; profiler API " + api});
  std::uint64_t written = 0;
  std::uint64_t dropped = 0;
  for (const RankCapture* f : in.files) {
    written += f->dump.records.size();
    dropped += f->dump.comm.records_dropped;
  }
  out.push_back({"capture", fmt::format("events {}; {} record(s), {} dropped",
                                        distinct(in.files, events_of), written, dropped)});
  std::map<std::string, std::size_t> methods;
  double worst = -1;
  for (const RankCapture* f : in.files) {
    ++methods[f->clock.method_name()];
    if (f->clock.uncertainty_ns) worst = std::max(worst, *f->clock.uncertainty_ns);
  }
  std::string clocks;
  for (const auto& [m, n] : methods) {
    clocks += fmt::format("{}{} ({} file{})", clocks.empty() ? "" : ", ", m, n, n == 1 ? "" : "s");
  }
  if (worst >= 0) clocks += fmt::format("; worst uncertainty ±{}", format_duration(worst));
  out.push_back({"GPU→host clock", clocks});
  std::int64_t start = 0;
  std::int64_t end = 0;
  for (const RankCapture* f : in.files) {
    if (f->dump.comm.capture_start_ns > 0 &&
        (start == 0 || f->dump.comm.capture_start_ns < start)) {
      start = f->dump.comm.capture_start_ns;
    }
    end = std::max(end, f->dump.comm.capture_end_ns);
  }
  if (start > 0 && end >= start) {
    out.push_back({"capture time", fmt::format("{}, {}", utc(start),
                                               format_duration(static_cast<double>(end - start)))});
  }
  if (!in.files.empty()) {
    std::string env;
    std::set<std::string> differ;
    for (const auto& [k, v] : in.files.front()->dump.metadata) {
      if (k.rfind("env.", 0) != 0) continue;
      env += fmt::format("{}{}={}", env.empty() ? "" : " ", k.substr(4), v);
      for (const RankCapture* f : in.files) {
        if (f->dump.meta(k) != v) differ.insert(k.substr(4));
      }
    }
    if (!env.empty()) {
      std::string d;
      for (const auto& k : differ) d += (d.empty() ? "" : ", ") + k;
      out.push_back({"environment (first file)",
                     differ.empty() ? env : env + " — differs between files: " + d});
    }
  }
  return out;
}

std::string rank_label(const RankCapture& c) {
  return fmt::format("rank {}", c.rank());
}

void phase_blocks(const Communicator& comm, bool several, std::vector<Block>& out) {
  const std::string of = several ? fmt::format(" (comm {:016x})", comm.comm_hash) : "";
  StackedBars funcs;
  funcs.title = "GPU time per rank by collective" + of;
  funcs.note =
      "Summed GPU spans (first KernelCh start to last KernelCh stop, stale KernelCh left out) "
      "of the rank's operations, by NCCL function.";
  std::vector<std::vector<FuncSummary>> summaries;
  for (const RankCapture* r : comm.ranks) {
    summaries.push_back(summarize_by_func(*r));
    for (const auto& f : summaries.back()) {
      if (std::find(funcs.segments.begin(), funcs.segments.end(), f.func) == funcs.segments.end())
        funcs.segments.push_back(f.func);
    }
  }
  for (std::size_t i = 0; i < comm.ranks.size(); ++i) {
    funcs.bars.push_back(rank_label(*comm.ranks[i]));
    std::vector<double> v(funcs.segments.size(), 0);
    for (const auto& f : summaries[i]) {
      const auto at = std::find(funcs.segments.begin(), funcs.segments.end(), f.func);
      v[static_cast<std::size_t>(at - funcs.segments.begin())] = static_cast<double>(f.total_ns);
    }
    funcs.values.push_back(std::move(v));
  }
  if (funcs.segments.empty()) {
    out.emplace_back(Paragraph{"No timed NCCL operation" + of + "."});
  } else {
    out.emplace_back(std::move(funcs));
  }

  std::vector<ProxyStepBreakdown> steps;
  bool any_steps = false;
  bool any_ring = false;
  for (const RankCapture* r : comm.ranks) {
    steps.push_back(proxy_step_breakdown(*r));
    any_steps = any_steps || steps.back().steps > 0;
    any_ring = any_ring || steps.back().ring_allreduce_steps > 0;
  }
  if (!any_steps) {
    out.emplace_back(Paragraph{"No proxy steps" + of +
                               ": the phase split of NET proxy steps needs NET transport (and "
                               "proxy events captured)."});
    return;
  }
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
  for (std::size_t i = 0; i < comm.ranks.size(); ++i) {
    const ProxyStepBreakdown& b = steps[i];
    net.bars.push_back(rank_label(*comm.ranks[i]));
    net.values.push_back({static_cast<double>(b.net_send_ns), static_cast<double>(b.net_recv_ns),
                          static_cast<double>(b.sync_ns), static_cast<double>(b.other_ns)});
    ring.bars.push_back(rank_label(*comm.ranks[i]));
    ring.values.push_back({static_cast<double>(b.reduce_scatter_ns),
                           static_cast<double>(b.all_gather_ns),
                           static_cast<double>(b.not_ring_allreduce_ns)});
  }
  out.emplace_back(std::move(net));
  if (any_ring) out.emplace_back(std::move(ring));
}

// The timed bandwidth rows of one communicator as diagnosis evidence (Send/Recv rows left out),
// as `report` gives them to the bandwidth rules.
}  // namespace

Result<ReportModel> build_npkt_report_model(const NpktReportInput& in) {
  ReportModel m;
  m.title = "npkit-analyze report: " + in.path;
  m.subtitle = "NCCL profiler plugin capture (.npkt)";
  m.facts = facts(in);
  m.warnings = in.warnings;
  const bool several = in.comms->size() > 1;

  Section phases{"phases", "Time per rank", {}};
  for (const auto& comm : *in.comms) phase_blocks(comm, several, phases.blocks);
  if (in.event_ranks != nullptr) {
    phases.blocks.emplace_back(phase_bars(*in.event_phases, *in.event_ranks, true,
                                          "GPU event time per rank by phase (event records)",
                                          "top-level GPU event span"));
    if (has_cpu_time(*in.event_ranks)) {
      phases.blocks.emplace_back(phase_bars(*in.event_phases, *in.event_ranks, false,
                                            "Host event time per rank by phase (event records)",
                                            "top-level host event span"));
    }
  }

  Section bandwidth{"bandwidth", "Bandwidth and latency vs size", {}};
  const Run run = npkt_run(in.path, *in.comms);
  const auto rows = bandwidth_rows(run, "all");
  const auto switches = switch_points(rows);
  bandwidth.blocks = bandwidth_blocks(rows, switches, run);
  if (rows.empty()) bandwidth.blocks.emplace_back(Paragraph{"No collectives to time."});

  Section waits{"waits", "Stragglers and waits", {}};
  std::vector<CrossRankAnalysis> analyses;
  std::vector<npkit::Finding> findings;
  for (std::size_t i = 0; i < in.comms->size(); ++i) {
    const Communicator& comm = (*in.comms)[i];
    analyses.push_back(analyze_cross_rank(
        cross_rank_input(run.comms[i], proxy_rank_phases(run.comms[i])), in.thresholds));
    const CrossRankAnalysis& a = analyses.back();
    for (auto& b : cross_rank_blocks(a, m.reduction)) waits.blocks.push_back(std::move(b));
    const auto found = communicator_findings(a, rows, comm.comm_hash, in.thresholds);
    findings.insert(findings.end(), found.begin(), found.end());
  }

  Section timeline{"timeline", "Timeline of one collective instance", {}};
  std::size_t chosen = analyses.size();
  for (std::size_t c = 0; c < analyses.size() && chosen == analyses.size(); ++c) {
    for (const auto& inst : analyses[c].input.instances) {
      if (window_of(inst)) {
        chosen = c;
        break;
      }
    }
  }
  if (chosen == analyses.size()) {
    if (in.iteration) {
      return Error{
          fmt::format("--iteration {}: no collective instance of {} was joined across "
                      "ranks",
                      *in.iteration, in.path)};
    }
    timeline.blocks.emplace_back(
        Paragraph{"No collective instance was joined across ranks: nothing to draw."});
  } else {
    const auto& instances = analyses[chosen].input.instances;
    auto index = choose_instance(instances, in.iteration);
    if (!index) return index.error();
    const JoinedInstance& inst = instances[*index];
    const std::string title =
        fmt::format("Timeline of {} ({}, {})", inst.label,
                    format_bytes(static_cast<double>(inst.bytes)), analyses[chosen].input.scope);
    timeline.blocks.emplace_back(
        npkt_timeline((*in.comms)[chosen], *window_of(inst), title,
                      describe_choice(inst, *index, instances.size(), in.iteration.has_value())));
    m.reduction.push_back(fmt::format(
        "Timeline: one collective instance only (#{} of {}), {}.", *index, instances.size(),
        in.iteration ? "chosen with --iteration" : "the one of median duration"));
  }

  Section diagnosis{"findings", "Findings", {}};
  diagnosis.blocks.emplace_back(finding_list(findings));

  m.sections.push_back(std::move(diagnosis));
  m.sections.push_back(std::move(phases));
  m.sections.push_back(std::move(bandwidth));
  m.sections.push_back(std::move(waits));
  m.sections.push_back(std::move(timeline));
  return m;
}

}  // namespace npkit::html
