#include "output/run_report_output.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "output/bandwidth_output.hpp"
#include "output/cross_rank_output.hpp"
#include "output/driver_results_output.hpp"
#include "output/hang_output.hpp"
#include "output/json_writer.hpp"
#include "output/kernel_phase_output.hpp"
#include "output/phase_report_output.hpp"
#include "output/report_summary.hpp"
#include "output/run_text.hpp"
#include "util/quantiles.hpp"
#include "util/readable_duration.hpp"
#include "util/saturating.hpp"

namespace npkit {
namespace {

constexpr double kHintBelow = 0.5;
constexpr std::size_t kHintNames = 3;

const PhaseReportWording& wording() {
  static const PhaseReportWording w{
      "GPU span time",
      "top-level spans summed over tracks",
      "CPU span time",
      "Phases (exclusive time; share of the domain's time; spread of per-rank totals)",
      "Per rank (GPU)",
      "Per rank (CPU)"};
  return w;
}

// Per rank and collective (and user tag, report --by tag): instances, timed, total and median time.
struct RankCollective {
  std::uint64_t instances = 0;
  std::vector<double> times;  // sorted
  double total = 0;
};

// (tag, rank, collective); the tag is 0 unless by_tag.
using RankCollectiveKey = std::tuple<std::uint64_t, std::int32_t, std::string>;

std::map<RankCollectiveKey, RankCollective> rank_collectives(const RunCommunicator& comm,
                                                             bool by_tag = false) {
  std::map<RankCollectiveKey, RankCollective> out;
  for (const auto& inst : comm.instances) {
    for (const auto& m : inst.members) {
      RankCollective& c = out[{by_tag ? m.tag : 0, m.rank, inst.op_on(m.rank)}];
      ++c.instances;
      if (m.timed) c.times.push_back(static_cast<double>(m.duration_ns()));
    }
  }
  for (auto& [key, c] : out) {
    std::sort(c.times.begin(), c.times.end());
    for (double x : c.times) c.total += x;
  }
  return out;
}

TextTable collectives_per_rank(const RunCommunicator& comm, bool by_tag) {
  TextTable t;
  t.title = by_tag ? "Collectives per user tag and rank" : "Collectives per rank";
  if (by_tag) t.columns.push_back("tag");
  for (const char* c : {"rank", "collective", "instances", "timed", "total", "median"}) {
    t.columns.push_back(c);
  }
  for (const auto& [key, c] : rank_collectives(comm, by_tag)) {
    const bool timed = !c.times.empty();
    std::vector<std::string> cells;
    if (by_tag) cells.push_back(std::to_string(std::get<0>(key)));
    for (std::string cell :
         {std::to_string(std::get<1>(key)), std::get<2>(key), std::to_string(c.instances),
          std::to_string(c.times.size()), timed ? readable_duration(c.total) : std::string("-"),
          timed ? readable_duration(sorted_quantile(c.times, 0.5)) : std::string("-")}) {
      cells.push_back(std::move(cell));
    }
    t.add_row(std::move(cells));
  }
  return t;
}

// NCCL's kernel phases per rank of every communicator that has them (an input without spans).
void render_kernel_phases(const RunReport& r, OutputFormat f, std::string& out) {
  render_line(
      "Phases: NCCL's kernel phases (KernelPhase events; this .npkt capture holds no spans): "
      "initial_sync, compute and final_sync of each timed operation, docs/phases.md",
      f, out);
  for (const auto& c : r.comms) {
    if (c.kernel_phases.empty()) continue;
    render_block(
        kernel_phase_table(c.kernel_phases, r.comms.size() > 1 ? comm_key(*c.comm) : "", r.by_tag),
        f, out);
  }
}

std::string hint(const RunReport& r) {
  if (!r.phases || r.unassigned.empty()) return "";
  const double share = explained_share(*r.phases);
  if (share >= kHintBelow) return "";
  std::string names;
  for (std::size_t i = 0; i < r.unassigned.size() && i < kHintNames; ++i) {
    names += fmt::format("{}{} ({})", i == 0 ? "" : ", ", r.unassigned[i].name,
                         readable_duration(r.unassigned[i].ns));
  }
  return fmt::format(
      "Hint: the phases explain only {} of the GPU span time; the most unassigned time is in {}. "
      "Give these events a phase with --phase-map FILE (docs/phases.md).",
      percent(share), names);
}

// Waiting inside the phases: per rank and phase, then per size the rank that waited most.
void render_waits(const PhaseWaits& w, OutputFormat f, std::string& out,
                  std::vector<std::string>& missing) {
  if (w.instances == 0) {
    missing.push_back("waiting inside phases (no collective instance on two ranks)");
    return;
  }
  TextTable t;
  t.title = fmt::format(
      "Waiting inside phases ({} instance(s) on two or more ranks; waiting = a rank's time in the "
      "phase beyond the least any rank spent in it at that instance)",
      w.instances);
  t.columns = {"rank", "phase", "time", "waiting", "share"};
  for (const auto& r : w.ranks) {
    t.add_row({std::to_string(r.rank), r.phase, readable_duration(r.time_ns),
               readable_duration(r.wait_ns), percent(share(r.wait_ns, r.time_ns))});
  }
  render_block(t, f, out);
  TextTable s;
  s.title = "Waiting inside phases per size (the rank that waited most)";
  s.columns = {"size", "phase", "ranks", "waiting", "most", "its waiting", "its share"};
  for (std::size_t i = 0; i < w.by_size.size();) {
    std::size_t j = i;
    std::map<std::string, std::vector<const PhaseWait*>> by_phase;
    while (j < w.by_size.size() && w.by_size[j].size == w.by_size[i].size) {
      by_phase[w.by_size[j].phase].push_back(&w.by_size[j]);
      ++j;
    }
    for (const auto& [phase, ranks] : by_phase) {
      if (phase == "other") continue;  // the collectives' own time, not a phase of the algorithm
      std::int64_t total = 0;
      const PhaseWait* most = ranks.front();
      for (const PhaseWait* r : ranks) {
        total = sat_add(total, r->wait_ns);
        if (r->wait_ns > most->wait_ns) most = r;
      }
      s.add_row({readable_bytes(w.by_size[i].size), phase, std::to_string(ranks.size()),
                 readable_duration(total), std::to_string(most->rank),
                 readable_duration(most->wait_ns), percent(share(most->wait_ns, most->time_ns))});
    }
    i = j;
  }
  render_block(s, f, out);
}

void write_wait_rows(JsonWriter& w, const char* key, const std::vector<PhaseWait>& rows,
                     bool sizes) {
  w.objects(key, rows, [&](const auto& r) {
    if (sizes) w.field("size", r.size);
    w.field("rank", r.rank);
    w.field("phase", r.phase);
    w.field("time_ns", r.time_ns);
    w.field("wait_ns", r.wait_ns);
  });
}

std::string with_share(std::int64_t ns, std::int64_t whole) {
  return fmt::format("{} ({})", readable_duration(ns), percent(share(ns, whole)));
}

std::string clock_of(const RunRank& r) {
  std::string s = r.clock;
  if (r.clock_uncertainty_ns) s += " ±" + readable_duration(*r.clock_uncertainty_ns);
  return s;
}

void render_clocks(const RunCommunicator& comm, OutputFormat f, std::string& out) {
  std::vector<std::string> items;
  for (const auto& r : comm.ranks) {
    if (r.clock.empty()) continue;
    items.push_back(
        fmt::format("rank {} {}{}", r.rank, clock_of(r), r.host.empty() ? "" : " on " + r.host));
  }
  if (items.empty()) return;
  if (f == OutputFormat::kTable) out += "\n";
  render_list("Rank clocks (GPU to host; they bound the sync figures):", items, f, out);
}

bool has_proxy_steps(const RunCommunicator& comm) {
  return std::any_of(comm.ranks.begin(), comm.ranks.end(),
                     [](const RunRank& r) { return r.proxy && r.proxy->steps > 0; });
}

void render_proxy_steps(const RunCommunicator& comm, OutputFormat f, std::string& out,
                        std::vector<std::string>& missing) {
  if (!has_proxy_steps(comm)) {
    missing.push_back("NET proxy steps (no NET transport, or proxy events not recorded)");
    return;
  }
  TextTable steps;
  steps.title =
      "Proxy steps (NET transport; step time sums the steps' own times, and steps overlap, so it "
      "can exceed the wall time; net_send = SendWait, net_recv = RecvWait + RecvFlushWait, sync = "
      "SendGPUWait + SendPeerWait + RecvGPUWait)";
  steps.columns = {"rank",     "steps", "never stopped", "step time", "net_send",
                   "net_recv", "sync",  "other",         "explained"};
  TextTable ring;
  ring.title =
      "Ring AllReduce proxy steps (first n-1 ring steps of each 2(n-1)-step loop: reduce_scatter; "
      "last n-1: all_gather)";
  ring.columns = {"rank", "steps", "reduce_scatter", "all_gather", "other steps"};
  for (const auto& r : comm.ranks) {
    if (!r.proxy) continue;
    const ProxyStepBreakdown& b = *r.proxy;
    steps.add_row({std::to_string(r.rank), std::to_string(b.steps),
                   std::to_string(b.steps_never_stopped), readable_duration(b.step_ns),
                   with_share(b.net_send_ns, b.step_ns), with_share(b.net_recv_ns, b.step_ns),
                   with_share(b.sync_ns, b.step_ns), with_share(b.other_ns, b.step_ns),
                   percent(b.explained())});
    if (b.ring_allreduce_steps > 0) {
      ring.add_row({std::to_string(r.rank), std::to_string(b.ring_allreduce_steps),
                    with_share(b.reduce_scatter_ns, b.step_ns),
                    with_share(b.all_gather_ns, b.step_ns),
                    with_share(b.not_ring_allreduce_ns, b.step_ns)});
    }
  }
  render_block(steps, f, out);
  if (!ring.rows.empty()) render_block(ring, f, out);
}

void render_alltoall(const RunCommunicator& comm, OutputFormat f, std::string& out) {
  TextTable t;
  t.title =
      "AlltoAll per peer (each rank's Send/Recv inside its AlltoAll operations; time = summed GPU "
      "spans of the timed ones; GB/s = their bytes / that time)";
  t.columns = {"rank", "peer", "direction", "operations", "bytes", "timed", "time", "GB/s"};
  const AlltoallPeerTraffic* slowest = nullptr;
  for (const auto& r : comm.ranks) {
    for (const auto& p : r.alltoall_peers) {
      const bool timed = p.timed > 0;
      t.add_row({std::to_string(p.rank), std::to_string(p.peer), p.send ? "send" : "recv",
                 std::to_string(p.operations), readable_bytes(p.bytes), std::to_string(p.timed),
                 timed ? readable_duration(p.time_ns) : "-", timed ? gbps(p.gbps) : "-"});
      if (timed && p.time_ns > 0 && (slowest == nullptr || p.gbps < slowest->gbps)) slowest = &p;
    }
  }
  if (t.rows.empty()) return;
  render_block(t, f, out);
  // The per-peer spans stand only where an AlltoAll of the communicator has a clean member.
  std::uint64_t alltoalls = 0;
  std::uint64_t clean = 0;
  for (const auto& inst : comm.instances) {
    if (inst.func != "AlltoAll") continue;
    ++alltoalls;
    if (inst.clean_members() > 0) ++clean;
  }
  if (alltoalls > 0 && clean == 0) {
    render_line(fmt::format("Slowest pair: - (none of the {} AlltoAll instance(s) has a clean "
                            "time: untimed or flagged, so their per-peer spans are not ranked)",
                            alltoalls),
                f, out);
  } else if (slowest != nullptr) {
    render_line(
        fmt::format("Slowest pair: rank {} {} peer {} at {} GB/s ({} in {}); "
                    "untimed rows (a rank's copy to itself has no KernelCh) are left out",
                    slowest->rank, slowest->send ? "sending to" : "receiving from", slowest->peer,
                    gbps(slowest->gbps), readable_bytes(slowest->timed_bytes),
                    readable_duration(slowest->time_ns)),
        f, out);
  }
}

void render_communicator(const RunReport& r, const CommunicatorReport& c, OutputFormat f,
                         std::string& out, std::vector<std::string>& missing) {
  if (f == OutputFormat::kMarkdown) {
    out += "## " + describe_communicator(*c.comm) + "\n\n";
  } else {
    out += "\n" + describe_communicator(*c.comm) + "\n";
  }
  render_line("Times: " + c.comm->time_source, f, out);
  for (const auto& note : c.comm->notes) render_line("Note: " + note, f, out);
  if (c.comm->instances.empty() && r.run->driver_only) {
    render_line(
        "No collective instances: nccl-tests' results hold one averaged time per size and "
        "placement, no per-instance times (its table follows)",
        f, out);
    missing.push_back(
        "clock alignment, join, sync, stragglers, phase imbalance, proxy steps, switch points and "
        "latency (nccl-tests' results hold no timestamps, no per-rank times, no algorithm or "
        "protocol)");
    return;
  }
  TextTable colls = collectives_per_rank(*c.comm, r.by_tag);
  if (colls.rows.empty()) {
    missing.push_back("collectives (no collective-level span or event to join)");
  } else {
    render_block(colls, f, out);
  }
  render_clocks(*c.comm, f, out);
  append_cross_rank_text(c.cross, f, out, missing);
  render_proxy_steps(*c.comm, f, out, missing);
  render_alltoall(*c.comm, f, out);
  // Kernel-launched collectives (not Send/Recv, not AlltoAll made of them) without any
  // algorithm or protocol: the input does not record the choice.
  const auto& insts = c.comm->instances;
  const auto launched = [](const RunInstance& i) { return !i.is_pair() && i.func != "AlltoAll"; };
  if (std::any_of(insts.begin(), insts.end(), launched) &&
      std::none_of(insts.begin(), insts.end(), [&](const RunInstance& i) {
        return launched(i) && !(i.algo.empty() && i.proto.empty());
      })) {
    missing.push_back("switch points (the input records no algorithm or protocol)");
  } else {
    render_switch_points(r.switches, c.comm->hash, f, out);
  }
  render_latency(r.latency, c.comm->hash, f, out);
}

// Leaves out the named columns (what --wide keeps).
void drop_columns(TextTable& t, const std::vector<std::string>& names) {
  for (std::size_t c = t.columns.size(); c-- > 0;) {
    if (std::find(names.begin(), names.end(), t.columns[c]) == names.end()) continue;
    t.columns.erase(t.columns.begin() + static_cast<std::ptrdiff_t>(c));
    for (auto& row : t.rows) {
      if (c < row.size()) row.erase(row.begin() + static_cast<std::ptrdiff_t>(c));
    }
  }
}

void write_proxy_json(JsonWriter& w, const ProxyStepBreakdown& b) {
  w.object("proxy_steps", [&] {
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
      w.field("name", t.name);
      w.field("ns", t.ns);
      w.field("intervals", t.intervals);
      w.end_object();
    }
    w.end_array();
    w.object("ring_allreduce", [&] {
      w.field("steps", b.ring_allreduce_steps);
      w.field("reduce_scatter_ns", b.reduce_scatter_ns);
      w.field("all_gather_ns", b.all_gather_ns);
      w.field("other_steps_ns", b.not_ring_allreduce_ns);
    });
  });
}

void write_peers_json(JsonWriter& w, const RunRank& r) {
  w.objects("alltoall_peers", r.alltoall_peers, [&](const auto& p) {
    w.field("peer", p.peer);
    w.field("direction", p.send ? "send" : "recv");
    w.field("operations", p.operations);
    w.field("bytes", p.bytes);
    w.field("timed", p.timed);
    w.field("timed_bytes", p.timed_bytes);
    w.field("time_ns", p.time_ns);
    w.field("gbps", p.gbps);
  });
}

void write_ranks_json(JsonWriter& w, const RunCommunicator& comm) {
  const auto colls = rank_collectives(comm);
  w.key("ranks");
  w.begin_array();
  for (const auto& r : comm.ranks) {
    w.begin_object();
    w.field("rank", r.rank);
    w.field("host", r.host);
    w.field("clock", r.clock);
    if (r.clock_uncertainty_ns) w.field("clock_uncertainty_ns", *r.clock_uncertainty_ns);
    w.key("collectives");
    w.begin_array();
    for (const auto& [key, c] : colls) {
      if (std::get<1>(key) != r.rank) continue;
      w.begin_object();
      w.field("collective", std::get<2>(key));
      w.field("instances", c.instances);
      w.field("timed", static_cast<std::uint64_t>(c.times.size()));
      w.field("total_ns", c.total);
      if (!c.times.empty()) w.field("median_ns", sorted_quantile(c.times, 0.5));
      w.end_object();
    }
    w.end_array();
    if (r.proxy) write_proxy_json(w, *r.proxy);
    write_peers_json(w, r);
    w.end_object();
  }
  w.end_array();
}

}  // namespace

void render_run_report(const RunReport& r, const ReportInput& in, OutputFormat f,
                       std::string& out) {
  const bool md = f == OutputFormat::kMarkdown;
  if (md) out += "# npkit-analyze report\n\n";
  std::string head =
      fmt::format("{}: {}, {} file(s), {} communicator(s)", in.path, input_kind_name(r.run->kind),
                  r.run->config.files, r.run->comms.size());
  if (!in.event_table.empty()) head += ", event table " + in.event_table;
  render_line(head, f, out);
  render_report_summary(r, f, out);
  if (r.hang.worth_reporting()) {
    if (md) out += "## Where it stopped\n\n";
    render_section_line(r.hang.stalled() ? "Where it stopped (the capture ended with work in "
                                           "flight; npkit-analyze hang):"
                                         : "Where it stopped (some ranks have no data; "
                                           "npkit-analyze hang):",
                        f, out);
    append_hang_text(r.hang, f, out);
  }
  std::vector<Finding> findings;
  for (const auto& c : r.comms)
    findings.insert(findings.end(), c.findings.begin(), c.findings.end());
  if (!findings.empty()) {
    out += md ? "## Findings\n\n" : "\n";
    append_findings(findings, f, out);
  }
  std::vector<std::string> missing;
  if (r.phases) {
    out += md ? "## Phases\n\n" : "\n";
    render_phase_report(*r.phases, *in.phases, wording(), f, out);
    const std::string h = hint(r);
    if (!h.empty()) render_section_line(h, f, out);
    if (r.waits) render_waits(*r.waits, f, out, missing);
    if (std::none_of(r.comms.begin(), r.comms.end(),
                     [](const CommunicatorReport& c) { return c.comm->from_spans; })) {
      render_section_line(
          "Spans across ranks: no collective-level span to join (give the kernel-wide spans a "
          "collective in --phase-map, docs/phases.md)",
          f, out);
    }
  } else if (r.has_kernel_phases()) {
    render_kernel_phases(r, f, out);
  } else {
    missing.push_back(fmt::format("phases (this {} holds no spans)", input_kind_name(r.run->kind)));
  }
  for (const auto& c : r.comms) render_communicator(r, c, f, out, missing);
  if (r.run->driver_only) {
    if (md) out += "## nccl-tests results\n\n";
    TextTable driver = driver_results_table(r.run->driver, "all", f);
    if (!in.wide) {
      drop_columns(driver, {"count", "redop", "root", "pass", "oop algbw", "ip algbw"});
      driver.title += " (report --wide: every column)";
    }
    render_block(driver, f, out);
  }
  if (!missing.empty()) {
    std::vector<std::string> unique;
    for (auto& m : missing) {
      if (std::find(unique.begin(), unique.end(), m) == unique.end()) unique.push_back(m);
    }
    render_section_line(fmt::format("Not in this input: {}", fmt::join(unique, "; ")), f, out);
  }
}

void render_run_report_csv(const RunReport& r, std::string& out) {
  if (r.phases) render_csv(phase_report_csv(*r.phases), out);
  TextTable ranks;
  ranks.columns = {"comm",
                   "rank",
                   "host",
                   "clock",
                   "instances",
                   "timed",
                   "gpu_time_ns",
                   "step_ns",
                   "net_send_ns",
                   "net_recv_ns",
                   "sync_ns",
                   "other_ns",
                   "reduce_scatter_ns",
                   "all_gather_ns"};
  for (const auto& c : r.comms) {
    const auto colls = rank_collectives(*c.comm);
    for (const auto& rank : c.comm->ranks) {
      std::uint64_t instances = 0;
      std::uint64_t timed = 0;
      double total = 0;
      for (const auto& [key, rc] : colls) {
        if (std::get<1>(key) != rank.rank) continue;
        instances += rc.instances;
        timed += rc.times.size();
        total += rc.total;
      }
      const ProxyStepBreakdown b = rank.proxy.value_or(ProxyStepBreakdown{});
      auto ns = [&](std::int64_t v) { return rank.proxy ? std::to_string(v) : std::string(); };
      ranks.add_row({comm_key(*c.comm), std::to_string(rank.rank), rank.host, rank.clock,
                     std::to_string(instances), std::to_string(timed), fmt::format("{:.0f}", total),
                     ns(b.step_ns), ns(b.net_send_ns), ns(b.net_recv_ns), ns(b.sync_ns),
                     ns(b.other_ns), ns(b.reduce_scatter_ns), ns(b.all_gather_ns)});
    }
  }
  if (!out.empty()) out += "\n";
  render_csv(ranks, out);
  if (r.waits) {
    TextTable waits;
    waits.columns = {"size", "rank", "phase", "time_ns", "wait_ns"};
    for (const auto& w : r.waits->by_size) {
      waits.add_row({std::to_string(w.size), std::to_string(w.rank), w.phase,
                     std::to_string(w.time_ns), std::to_string(w.wait_ns)});
    }
    out += "\n";
    render_csv(waits, out);
  }
  for (const auto& c : r.comms) {
    out += "\n";
    render_csv(cross_rank_csv(c.cross), out);
  }
  if (r.hang.worth_reporting()) {
    out += "\n";
    append_hang_text(r.hang, OutputFormat::kCsv, out);
  }
  if (r.run->driver_only) {
    out += "\n";
    render_csv(driver_results_table(r.run->driver, "all", OutputFormat::kCsv), out);
  }
}

void write_run_report_json(const RunReport& r, const ReportInput& in,
                           const Diagnostics& diagnostics, std::string& out) {
  JsonWriter w(out);
  w.begin_object();
  w.field("schema", "npkit-analyze.report");
  w.field("schema_version", 2);
  w.field("path", in.path);
  w.field("input", input_kind_key(r.run->kind));
  w.field("files", r.run->config.files);
  if (!in.event_table.empty()) w.field("event_table", in.event_table);
  w.field("has_spans", r.phases.has_value());
  if (r.phases) write_phase_report_json(w, *r.phases, *in.phases);
  if (r.waits) {
    w.object("phase_waits", [&] {
      w.field("instances", r.waits->instances);
      write_wait_rows(w, "ranks", r.waits->ranks, false);
      write_wait_rows(w, "sizes", r.waits->by_size, true);
    });
  }
  w.objects("unassigned", r.unassigned, [&](const auto& u) {
    w.field("event", u.name);
    w.field("ns", u.ns);
  });
  w.key("communicators");
  w.begin_array();
  std::vector<Finding> findings;
  for (const auto& c : r.comms) {
    w.begin_object();
    w.field("comm", comm_key(*c.comm));
    w.field("name", c.comm->name);
    w.field("nranks", c.comm->nranks);
    w.field("instances", static_cast<std::uint64_t>(c.comm->instances.size()));
    w.field("time_source", c.comm->time_source);
    write_ranks_json(w, *c.comm);
    if (!c.kernel_phases.empty()) write_kernel_phases_json(w, c.kernel_phases, r.by_tag);
    write_cross_rank_json(c.cross, w, /*with_findings=*/false);
    write_switch_points_json(w, r.switches, c.comm->hash);
    write_latency_json(w, r.latency, c.comm->hash);
    w.end_object();
    findings.insert(findings.end(), c.findings.begin(), c.findings.end());
  }
  w.end_array();
  if (r.hang.worth_reporting()) {
    w.object("where_it_stopped", [&] { write_hang_json(r.hang, w); });
  }
  if (r.run->driver_only) write_driver_results_json(w, r.run->driver, "all");
  write_findings_json(findings, w);
  write_warnings_json(w, diagnostics);
  w.end_object();
}

}  // namespace npkit
