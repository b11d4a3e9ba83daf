// `npkit-analyze report PATH` for .npkt dumps: per rank, collectives by function; across ranks,
// clock alignment, join gaps, sync and stragglers (commands/cross_rank_output.hpp); with NET
// transport, where the proxy steps spend their time; AlltoAll traffic per peer; switch points
// and latency distributions; and the findings of the diagnosis rules.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/bandwidth/bandwidth_table.hpp"
#include "analysis/diagnose/communicator_findings.hpp"
#include "analysis/join/arrival_skew.hpp"
#include "analysis/join/run_cross_rank.hpp"
#include "analysis/proxy/proxy_rank_phases.hpp"
#include "commands/html_report.hpp"
#include "commands/npkt_event_report.hpp"
#include "commands/npkt_input.hpp"
#include "import/npkt/npkt_run.hpp"
#include "import/npkt/profiler_rank_summary.hpp"
#include "import/npkt/proxy_step_breakdown.hpp"
#include "output/bandwidth_output.hpp"
#include "output/cross_rank_output.hpp"
#include "output/text_table.hpp"
#include "run/nccl_tests_convention.hpp"

namespace npkit::cli {
namespace {

struct RankReport {
  const RankCapture* capture = nullptr;
  std::vector<FuncSummary> funcs;
  ProxyStepBreakdown steps;
  std::vector<AlltoallPeerTraffic> peers;
};

struct CommReport {
  const Communicator* comm = nullptr;
  std::vector<RankReport> ranks;
  ArrivalSkew skew;
  CrossRankAnalysis cross;
  std::vector<Finding> findings;  // cross-rank findings, then the bandwidth rules'
};

struct Report {
  std::vector<CommReport> comms;
  std::vector<BandwidthRow> rows;
  std::vector<SwitchPoint> switches;
  std::vector<LatencyBucket> latency;
};

Report build_report(const LoadedCaptures& loaded, const Thresholds& thresholds) {
  Report report;
  const Run run = npkt_run("", loaded.comms);
  report.rows = bandwidth_rows(run, "all");
  report.switches = switch_points(report.rows);
  report.latency = latency_distributions(run);
  for (std::size_t i = 0; i < loaded.comms.size(); ++i) {
    const Communicator& comm = loaded.comms[i];
    CommReport c;
    c.comm = &comm;
    for (const RankCapture* r : comm.ranks) {
      c.ranks.push_back({r, summarize_by_func(*r), proxy_step_breakdown(*r),
                         alltoall_peer_traffic(r->collectives, r->rank())});
    }
    c.skew = arrival_skew(comm);
    c.cross = analyze_cross_rank(cross_rank_input(run.comms[i], proxy_rank_phases(run.comms[i])),
                                 thresholds);
    c.findings = communicator_findings(c.cross, report.rows, comm.comm_hash, thresholds);
    report.comms.push_back(std::move(c));
  }
  return report;
}

double share(std::int64_t part, std::int64_t whole) {
  return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

std::string with_share(std::int64_t ns, std::int64_t whole) {
  return fmt::format("{} ({})", us(static_cast<double>(ns)), percent(share(ns, whole)));
}

const RankSkew* skew_of(const ArrivalSkew& skew, std::int32_t rank) {
  for (const auto& s : skew.ranks) {
    if (s.rank == rank) return &s;
  }
  return nullptr;
}

std::string clock_summary(const RankCapture& r) {
  std::string s = r.clock.method_name();
  if (r.clock.uncertainty_ns) s += fmt::format(" ±{:.3f} us", *r.clock.uncertainty_ns / 1e3);
  return s;
}

std::string gbps(double v) {
  return fmt::format("{:.2f}", v);
}

void write_collectives(const CommReport& c, OutputFormat f, std::string& out) {
  TextTable colls;
  colls.title =
      "Collectives per rank (GPU span: first KernelCh start to last KernelCh stop, stale KernelCh "
      "left out)";
  colls.columns = {"rank",       "collective",  "count",    "timed",
                   "total (us)", "median (us)", "KernelCh", "stale KernelCh"};
  for (const auto& r : c.ranks) {
    for (const auto& fs : r.funcs) {
      colls.add_row({std::to_string(r.capture->rank()), fs.func, std::to_string(fs.count),
                     std::to_string(fs.timed),
                     fs.timed ? us(static_cast<double>(fs.total_ns)) : "-",
                     fs.timed ? us(fs.median_ns) : "-", std::to_string(fs.kernel_channels),
                     std::to_string(fs.stale_channels)});
    }
  }
  if (colls.rows.empty()) {
    render_section_line("no Coll or P2p events", f, out);
  } else {
    render_block(colls, f, out);
  }
}

void write_clocks(const CommReport& c, OutputFormat f, std::string& out) {
  std::string line = "Rank clocks (GPU to host; they bound the sync figures):";
  for (const auto& r : c.ranks) {
    line += fmt::format(
        " rank {} {}{};", r.capture->rank(), clock_summary(*r.capture),
        r.capture->dump.meta("hostname").empty() ? "" : " on " + r.capture->dump.meta("hostname"));
  }
  line.pop_back();
  render_section_line(line, f, out);
}

void write_steps(const CommReport& c, OutputFormat f, std::string& out) {
  bool any_steps = false;
  for (const auto& r : c.ranks) any_steps = any_steps || r.steps.steps > 0;
  if (!any_steps) {
    render_section_line("Proxy steps: none (no NET transport, or proxy events not captured)", f,
                        out);
    return;
  }
  TextTable steps;
  steps.title =
      "Proxy steps (NET transport; net_send = SendWait, net_recv = RecvWait + RecvFlushWait, "
      "sync = SendGPUWait + SendPeerWait + RecvGPUWait)";
  steps.columns = {"rank",     "steps", "never stopped", "step time (us)", "net_send",
                   "net_recv", "sync",  "other",         "explained"};
  TextTable ring;
  ring.title =
      "Ring AllReduce proxy steps (first n-1 ring steps of each 2(n-1)-step loop: reduce_scatter; "
      "last n-1: all_gather)";
  ring.columns = {"rank", "steps", "reduce_scatter", "all_gather", "other steps"};
  for (const auto& r : c.ranks) {
    const ProxyStepBreakdown& b = r.steps;
    steps.add_row({std::to_string(r.capture->rank()), std::to_string(b.steps),
                   std::to_string(b.steps_never_stopped), us(static_cast<double>(b.step_ns)),
                   with_share(b.net_send_ns, b.step_ns), with_share(b.net_recv_ns, b.step_ns),
                   with_share(b.sync_ns, b.step_ns), with_share(b.other_ns, b.step_ns),
                   percent(b.explained())});
    if (b.ring_allreduce_steps > 0) {
      ring.add_row({std::to_string(r.capture->rank()), std::to_string(b.ring_allreduce_steps),
                    with_share(b.reduce_scatter_ns, b.step_ns),
                    with_share(b.all_gather_ns, b.step_ns),
                    with_share(b.not_ring_allreduce_ns, b.step_ns)});
    }
  }
  render_block(steps, f, out);
  if (!ring.rows.empty()) render_block(ring, f, out);
}

// The slowest timed (rank, peer, direction) of a communicator's AlltoAll traffic, or null.
const AlltoallPeerTraffic* slowest_peer(const CommReport& c) {
  const AlltoallPeerTraffic* slowest = nullptr;
  for (const auto& r : c.ranks) {
    for (const auto& p : r.peers) {
      if (p.timed == 0 || p.time_ns <= 0) continue;
      if (slowest == nullptr || p.gbps < slowest->gbps) slowest = &p;
    }
  }
  return slowest;
}

void write_alltoall(const CommReport& c, OutputFormat f, std::string& out) {
  TextTable t;
  t.title =
      "AlltoAll per peer (each rank's Send/Recv inside its AlltoAll operations; time = summed GPU "
      "spans of the timed ones; GB/s = their bytes / that time)";
  t.columns = {"rank", "peer", "direction", "operations", "bytes", "timed", "time (us)", "GB/s"};
  for (const auto& r : c.ranks) {
    for (const auto& p : r.peers) {
      const bool timed = p.timed > 0;
      t.add_row({std::to_string(p.rank), std::to_string(p.peer), p.send ? "send" : "recv",
                 std::to_string(p.operations), std::to_string(p.bytes), std::to_string(p.timed),
                 timed ? us(static_cast<double>(p.time_ns)) : "-", timed ? gbps(p.gbps) : "-"});
    }
  }
  if (t.rows.empty()) return;
  render_block(t, f, out);
  if (const AlltoallPeerTraffic* s = slowest_peer(c)) {
    render_line(fmt::format("Slowest pair: rank {} {} peer {} at {} GB/s ({} B in {} us); "
                            "untimed rows (a rank's copy to itself has no KernelCh) are left out",
                            s->rank, s->send ? "sending to" : "receiving from", s->peer,
                            gbps(s->gbps), s->timed_bytes, us(static_cast<double>(s->time_ns))),
                f, out);
  }
}

void write_comm_text(const Report& report, const CommReport& c, OutputFormat f, std::string& out) {
  if (f == OutputFormat::kMarkdown) {
    out += "## " + describe_comm(*c.comm) + "\n\n";
  } else {
    out += "\n" + describe_comm(*c.comm) + "\n";
  }
  write_collectives(c, f, out);
  write_clocks(c, f, out);
  append_cross_rank_text(c.cross, f, out);
  write_steps(c, f, out);
  write_alltoall(c, f, out);
  render_switch_points(report.switches, c.comm->comm_hash, f, out);
  render_latency(report.latency, c.comm->comm_hash, f, out);
}

void write_steps_json(JsonWriter& w, const RankCapture& r, const ProxyStepBreakdown& b) {
  w.key("proxy_steps");
  w.begin_object();
  w.field("steps", b.steps);
  w.field("never_stopped", b.steps_never_stopped);
  w.field("step_ns", b.step_ns);
  w.field("net_send_ns", b.net_send_ns);
  w.field("net_recv_ns", b.net_recv_ns);
  w.field("sync_ns", b.sync_ns);
  w.field("other_ns", b.other_ns);
  w.field("explained_share", b.explained());
  w.key("states");
  w.begin_array();
  for (const auto& [state, t] : b.states) {
    w.begin_object();
    w.field("state", state);
    w.field("name", profiler_state_name(r.dump, state));
    w.field("ns", t.ns);
    w.field("intervals", t.intervals);
    w.end_object();
  }
  w.end_array();
  w.key("ring_allreduce");
  w.begin_object();
  w.field("steps", b.ring_allreduce_steps);
  w.field("reduce_scatter_ns", b.reduce_scatter_ns);
  w.field("all_gather_ns", b.all_gather_ns);
  w.field("other_steps_ns", b.not_ring_allreduce_ns);
  w.end_object();
  w.end_object();
}

void write_peers_json(JsonWriter& w, const RankReport& r) {
  w.key("alltoall_peers");
  w.begin_array();
  for (const auto& p : r.peers) {
    w.begin_object();
    w.field("peer", p.peer);
    w.field("direction", p.send ? "send" : "recv");
    w.field("operations", p.operations);
    w.field("bytes", p.bytes);
    w.field("timed", p.timed);
    w.field("timed_bytes", p.timed_bytes);
    w.field("time_ns", p.time_ns);
    w.field("gbps", p.gbps);
    w.end_object();
  }
  w.end_array();
}

Status write_json(const Report& report, const LoadedCaptures& loaded, const CommonOptions& o,
                  Diagnostics& diagnostics, std::string& out) {
  JsonWriter w(out);
  w.begin_object();
  w.field("schema", "npkit-analyze.npkt-report");
  w.field("schema_version", 1);
  w.field("path", o.path);
  w.key("communicators");
  w.begin_array();
  std::vector<Finding> findings;
  for (const auto& c : report.comms) {
    findings.insert(findings.end(), c.findings.begin(), c.findings.end());
    w.begin_object();
    w.field("hash", comm_hex(c.comm->comm_hash));
    w.field("name", c.comm->name);
    w.field("nranks", c.comm->nranks);
    w.field("skew_instances", c.skew.instances_compared);
    w.key("straggler_order");
    w.begin_array();
    for (auto rank : c.skew.straggler_order) w.value(rank);
    w.end_array();
    w.key("ranks");
    w.begin_array();
    for (const auto& r : c.ranks) {
      w.begin_object();
      w.field("rank", r.capture->rank());
      w.field("clock_method", r.capture->clock.method_name());
      w.field("hostname", r.capture->dump.meta("hostname"));
      w.key("collectives");
      w.begin_array();
      for (const auto& f : r.funcs) {
        w.begin_object();
        w.field("collective", f.func);
        w.field("count", f.count);
        w.field("timed", f.timed);
        w.field("total_ns", f.total_ns);
        w.field("median_ns", f.median_ns);
        w.field("kernel_channels", f.kernel_channels);
        w.field("stale_kernel_channels", f.stale_channels);
        w.field("operations_all_stale", f.untimed_stale);
        w.end_object();
      }
      w.end_array();
      w.key("skew");
      w.begin_object();
      if (const RankSkew* s = skew_of(c.skew, r.capture->rank())) {
        w.field("instances", s->instances);
        w.field("median_ns", s->median_ns);
        w.field("max_ns", s->max_ns);
        w.field("arrived_last", s->arrived_last);
      } else {
        w.field("instances", 0);
      }
      w.end_object();
      write_steps_json(w, *r.capture, r.steps);
      write_peers_json(w, r);
      w.end_object();
    }
    w.end_array();
    write_cross_rank_json(c.cross, w, /*with_findings=*/false);
    write_switch_points_json(w, report.switches, c.comm->comm_hash);
    write_latency_json(w, report.latency, c.comm->comm_hash);
    w.end_object();
  }
  w.end_array();
  std::string unused;
  NPKIT_TRY(append_event_phase_report(loaded, o, OutputFormat::kJson, unused, &w, diagnostics,
                                      &findings));
  write_findings_json(findings, w);
  write_warnings_json(w, diagnostics);
  w.end_object();
  return Ok{};
}

TextTable csv_table(const Report& report) {
  TextTable t;
  t.columns = {"comm",
               "rank",
               "collectives",
               "gpu_time_ns",
               "kernel_channels",
               "stale_kernel_channels",
               "skew_median_ns",
               "skew_max_ns",
               "arrived_last",
               "step_ns",
               "net_send_ns",
               "net_recv_ns",
               "sync_ns",
               "other_ns",
               "explained",
               "reduce_scatter_ns",
               "all_gather_ns",
               "host",
               "host_offset_ns",
               "sync_instances",
               "sync_arrived_last_share",
               "sync_skew_median_ns",
               "sync_wait_ns",
               "sync_busy_ns",
               "sync_wait_share",
               "sync_margin_median_ns"};
  for (const auto& c : report.comms) {
    for (const auto& r : c.ranks) {
      std::uint64_t count = 0;
      std::int64_t total = 0;
      std::uint64_t kernel_channels = 0;
      std::uint64_t stale = 0;
      for (const auto& f : r.funcs) {
        count += f.count;
        total += f.total_ns;
        kernel_channels += f.kernel_channels;
        stale += f.stale_channels;
      }
      const std::int32_t rank = r.capture->rank();
      const RankSkew* s = skew_of(c.skew, rank);
      const RankSync* sync = nullptr;
      for (const auto& x : c.cross.sync.ranks) {
        if (x.rank == rank) sync = &x;
      }
      const ProxyStepBreakdown& b = r.steps;
      t.add_row({comm_hex(c.comm->comm_hash),
                 std::to_string(rank),
                 std::to_string(count),
                 std::to_string(total),
                 std::to_string(kernel_channels),
                 std::to_string(stale),
                 s ? fmt::format("{:.1f}", s->median_ns) : "",
                 s ? std::to_string(s->max_ns) : "",
                 s ? std::to_string(s->arrived_last) : "",
                 std::to_string(b.step_ns),
                 std::to_string(b.net_send_ns),
                 std::to_string(b.net_recv_ns),
                 std::to_string(b.sync_ns),
                 std::to_string(b.other_ns),
                 fmt::format("{:.6f}", b.explained()),
                 std::to_string(b.reduce_scatter_ns),
                 std::to_string(b.all_gather_ns),
                 r.capture->dump.meta("hostname"),
                 fmt::format("{:.1f}", c.cross.alignment.offset_of(rank)),
                 sync ? std::to_string(sync->instances) : "0",
                 sync ? fmt::format("{:.6f}", sync->arrived_last_share) : "",
                 sync ? fmt::format("{:.1f}", sync->skew_median_ns) : "",
                 sync ? std::to_string(sync->wait_ns) : "",
                 sync ? std::to_string(sync->busy_ns) : "",
                 sync ? fmt::format("{:.6f}", sync->wait_share) : "",
                 sync ? fmt::format("{:.1f}", sync->margin_median_ns) : ""});
    }
  }
  return t;
}

Status write_text(const Report& report, const LoadedCaptures& loaded, const CommonOptions& o,
                  OutputFormat f, Diagnostics& diagnostics, std::string& out) {
  const std::string head = fmt::format("{}: {} file(s), {} communicator(s)", o.path,
                                       loaded.files.size(), loaded.comms.size());
  if (f == OutputFormat::kMarkdown) {
    out += "# npkit-analyze report\n\n";
    render_line(head, f, out);
  } else {
    out += head + "\n";
  }
  std::vector<Finding> findings;
  for (const auto& c : report.comms) {
    write_comm_text(report, c, f, out);
    findings.insert(findings.end(), c.findings.begin(), c.findings.end());
  }
  if (has_event_records(loaded)) {
    if (f == OutputFormat::kMarkdown) out += "## Event records\n\n";
    std::string events;
    NPKIT_TRY(append_event_phase_report(loaded, o, f, events, nullptr, diagnostics, &findings));
    out += f == OutputFormat::kMarkdown ? events : "\n" + events;
  }
  if (f == OutputFormat::kMarkdown) {
    out += "## Findings\n\n";
  } else {
    out += "\n";
  }
  append_findings(findings, f, out);
  return Ok{};
}

}  // namespace

Result<int> run_npkt_report(const CommonOptions& o, CliContext& context) {
  if (output_format(o) == OutputFormat::kHtml) return run_html_report(o, context);
  auto loaded = load_npkt_input(o);
  if (!loaded) return loaded.error();
  const Report report = build_report(*loaded, Thresholds{});
  std::string text;
  const OutputFormat f = output_format(o);
  if (f == OutputFormat::kJson) {
    NPKIT_TRY(write_json(report, *loaded, o, loaded->diagnostics, text));
  } else if (f == OutputFormat::kCsv) {
    render_csv(csv_table(report), text);
    NPKIT_TRY(append_event_phase_report(*loaded, o, f, text, nullptr, loaded->diagnostics));
  } else {
    NPKIT_TRY(write_text(report, *loaded, o, f, loaded->diagnostics, text));
  }
  NPKIT_TRY(write_output(o, text, context));
  print_warnings(loaded->diagnostics, o, context);
  return 0;
}

}  // namespace npkit::cli
