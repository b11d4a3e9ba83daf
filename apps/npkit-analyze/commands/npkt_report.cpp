// `npkit-analyze report PATH` for .npkt dumps: per rank, collectives by function, arrival skew
// (stragglers) and, with NET transport, where the proxy steps spend their time.
#include <fmt/format.h>

#include "commands/html_report.hpp"
#include "commands/npkt_input.hpp"
#include "join/arrival_skew.hpp"
#include "model/profiler_rank_summary.hpp"
#include "proxy/proxy_step_breakdown.hpp"
#include "render/text_table.hpp"

namespace npkit::cli {
namespace {

struct RankReport {
  const RankCapture* capture = nullptr;
  std::vector<FuncSummary> funcs;
  ProxyStepBreakdown steps;
};

struct CommReport {
  const Communicator* comm = nullptr;
  std::vector<RankReport> ranks;
  ArrivalSkew skew;
};

std::vector<CommReport> build_reports(const LoadedCaptures& loaded) {
  std::vector<CommReport> out;
  for (const auto& comm : loaded.comms) {
    CommReport c;
    c.comm = &comm;
    for (const RankCapture* r : comm.ranks) {
      c.ranks.push_back({r, summarize_by_func(*r), proxy_step_breakdown(*r)});
    }
    c.skew = arrival_skew(comm);
    out.push_back(std::move(c));
  }
  return out;
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

void write_comm_text(const CommReport& c, std::string& out) {
  out += "\n" + describe_comm(*c.comm) + "\n";
  TextTable colls;
  colls.title =
      "Collectives per rank (GPU span: first KernelCh start to last KernelCh stop, stale KernelCh "
      "left out)";
  colls.columns = {"rank",       "collective",  "count",    "timed",
                   "total (us)", "median (us)", "KernelCh", "stale KernelCh"};
  for (const auto& r : c.ranks) {
    for (const auto& f : r.funcs) {
      colls.add_row({std::to_string(r.capture->rank()), f.func, std::to_string(f.count),
                     std::to_string(f.timed), f.timed ? us(static_cast<double>(f.total_ns)) : "-",
                     f.timed ? us(f.median_ns) : "-", std::to_string(f.kernel_channels),
                     std::to_string(f.stale_channels)});
    }
  }
  if (colls.rows.empty()) {
    out += "no Coll or P2p events\n";
  } else {
    render_text(colls, out);
  }

  out += "\n";
  if (c.skew.instances_compared == 0) {
    out += "Arrival skew: no collective instance has GPU spans on two ranks\n";
  } else {
    TextTable skew;
    skew.title =
        fmt::format("Arrival skew (GPU start minus the earliest rank's, over {} instance(s))",
                    c.skew.instances_compared);
    skew.columns = {"rank", "instances", "median (us)", "max (us)", "arrived last", "clock"};
    for (const auto& r : c.ranks) {
      const RankSkew* s = skew_of(c.skew, r.capture->rank());
      if (s == nullptr) {
        skew.add_row(
            {std::to_string(r.capture->rank()), "0", "-", "-", "0", clock_summary(*r.capture)});
        continue;
      }
      skew.add_row({std::to_string(s->rank), std::to_string(s->instances), us(s->median_ns),
                    us(static_cast<double>(s->max_ns)), std::to_string(s->arrived_last),
                    clock_summary(*r.capture)});
    }
    render_text(skew, out);
    std::string order;
    for (auto rank : c.skew.straggler_order)
      order += (order.empty() ? "" : ", ") + std::to_string(rank);
    out += "Stragglers (latest median arrival first): " + order + "\n";
  }

  out += "\n";
  bool any_steps = false;
  for (const auto& r : c.ranks) any_steps = any_steps || r.steps.steps > 0;
  if (!any_steps) {
    out += "Proxy steps: none (no NET transport, or proxy events not captured)\n";
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
  render_text(steps, out);
  if (!ring.rows.empty()) {
    out += "\n";
    render_text(ring, out);
  }
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

void write_json(const std::vector<CommReport>& reports, const LoadedCaptures& loaded,
                const CommonOptions& o, std::string& out) {
  JsonWriter w(out);
  w.begin_object();
  w.field("schema", "npkit-analyze.npkt-report");
  w.field("schema_version", 1);
  w.field("path", o.path);
  w.key("communicators");
  w.begin_array();
  for (const auto& c : reports) {
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
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }
  w.end_array();
  write_warnings_json(w, loaded.diagnostics);
  w.end_object();
}

TextTable csv_table(const std::vector<CommReport>& reports) {
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
               "all_gather_ns"};
  for (const auto& c : reports) {
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
      const RankSkew* s = skew_of(c.skew, r.capture->rank());
      const ProxyStepBreakdown& b = r.steps;
      t.add_row({comm_hex(c.comm->comm_hash), std::to_string(r.capture->rank()),
                 std::to_string(count), std::to_string(total), std::to_string(kernel_channels),
                 std::to_string(stale), s ? fmt::format("{:.1f}", s->median_ns) : "",
                 s ? std::to_string(s->max_ns) : "", s ? std::to_string(s->arrived_last) : "",
                 std::to_string(b.step_ns), std::to_string(b.net_send_ns),
                 std::to_string(b.net_recv_ns), std::to_string(b.sync_ns),
                 std::to_string(b.other_ns), fmt::format("{:.6f}", b.explained()),
                 std::to_string(b.reduce_scatter_ns), std::to_string(b.all_gather_ns)});
    }
  }
  return t;
}

}  // namespace

Result<int> run_npkt_report(const CommonOptions& o, CliContext& context) {
  if (output_format(o) == OutputFormat::kHtml) return run_html_report(o, context);
  auto loaded = load_npkt_input(o);
  if (!loaded) return loaded.error();
  const auto reports = build_reports(*loaded);
  std::string text;
  switch (output_format(o)) {
    case OutputFormat::kJson:
      write_json(reports, *loaded, o, text);
      break;
    case OutputFormat::kCsv:
      render_csv(csv_table(reports), text);
      break;
    case OutputFormat::kTable:
      text += fmt::format("{}: {} file(s), {} communicator(s)\n", o.path, loaded->files.size(),
                          loaded->comms.size());
      for (const auto& c : reports) write_comm_text(c, text);
      break;
  }
  NPKIT_TRY(write_output(o, text, context));
  print_warnings(loaded->diagnostics, o, context);
  return 0;
}

}  // namespace npkit::cli
