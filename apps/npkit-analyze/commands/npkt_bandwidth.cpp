// `npkit-analyze bandwidth PATH` for .npkt dumps: nccl-tests-style rows per collective, size,
// algorithm and protocol, with the per-rank GPU time, the back-to-back period and the cross-rank
// "true" time.
#include <fmt/format.h>

#include <optional>
#include <set>

#include "analysis/bandwidth/bandwidth_table.hpp"
#include "commands/npkt_event_report.hpp"
#include "commands/npkt_input.hpp"
#include "commands/span_bandwidth_output.hpp"
#include "import/npkt/npkt_run.hpp"
#include "output/text_table.hpp"
#include "run/nccl_names.hpp"
#include "run/nccl_tests_convention.hpp"

namespace npkit::cli {
namespace {

// `bandwidth` over the event records of the capture (device or host recorder).
struct EventBandwidth {
  SpanBandwidthView view;
  std::vector<CollectiveSizeRow> collectives;
  std::vector<SpanBandwidthRow> spans;
};

std::string gbps(double v) {
  return fmt::format("{:.2f}", v);
}

std::string or_dash(const std::string& s) {
  return s.empty() ? "-" : s;
}

TextTable row_table(const std::vector<BandwidthRow>& rows, std::uint64_t comm) {
  TextTable t;
  t.columns = {"collective",   "size (B)",       "count",       "type",
               "algo",         "proto",          "instances",   "time (us)",
               "algbw (GB/s)", "busbw (GB/s)",   "period (us)", "period algbw",
               "period busbw", "true time (us)", "true algbw",  "true busbw"};
  for (const auto& r : rows) {
    if (r.comm_hash != comm) continue;
    const bool timed = !r.ranks.empty();
    t.add_row({r.func, std::to_string(r.bytes), std::to_string(r.count),
               or_dash(std::string(nccl_tests_type_name(r.type))), or_dash(r.algo),
               or_dash(r.proto), std::to_string(r.instances), timed ? us(r.time_ns) : "-",
               timed ? gbps(r.algbw_gbps) : "-", timed ? gbps(r.busbw_gbps) : "-",
               r.period_ns ? us(*r.period_ns) : "-", r.period_ns ? gbps(r.period_algbw_gbps) : "-",
               r.period_ns ? gbps(r.period_busbw_gbps) : "-",
               r.true_time_ns ? us(*r.true_time_ns) : "-",
               r.true_time_ns ? gbps(r.true_algbw_gbps) : "-",
               r.true_time_ns ? gbps(r.true_busbw_gbps) : "-"});
  }
  return t;
}

TextTable csv_table(const std::vector<BandwidthRow>& rows) {
  TextTable t;
  t.columns = {"comm",
               "collective",
               "size_bytes",
               "count",
               "type",
               "algo",
               "proto",
               "instances",
               "untimed_instances",
               "time_ns",
               "algbw_gbps",
               "busbw_gbps",
               "period_pairs",
               "period_ns",
               "period_algbw_gbps",
               "period_busbw_gbps",
               "true_instances",
               "true_time_ns",
               "true_algbw_gbps",
               "true_busbw_gbps"};
  for (const auto& r : rows) {
    const bool timed = !r.ranks.empty();
    t.add_row({comm_hex(r.comm_hash),
               r.func,
               std::to_string(r.bytes),
               std::to_string(r.count),
               r.type,
               r.algo,
               r.proto,
               std::to_string(r.instances),
               std::to_string(r.instances - r.timed_instances),
               timed ? fmt::format("{:.1f}", r.time_ns) : "",
               timed ? fmt::format("{:.6f}", r.algbw_gbps) : "",
               timed ? fmt::format("{:.6f}", r.busbw_gbps) : "",
               std::to_string(r.period_pairs),
               r.period_ns ? fmt::format("{:.1f}", *r.period_ns) : "",
               r.period_ns ? fmt::format("{:.6f}", r.period_algbw_gbps) : "",
               r.period_ns ? fmt::format("{:.6f}", r.period_busbw_gbps) : "",
               std::to_string(r.true_instances),
               r.true_time_ns ? fmt::format("{:.1f}", *r.true_time_ns) : "",
               r.true_time_ns ? fmt::format("{:.6f}", r.true_algbw_gbps) : "",
               r.true_time_ns ? fmt::format("{:.6f}", r.true_busbw_gbps) : ""});
  }
  return t;
}

std::string choice(const std::string& algo, const std::string& proto) {
  return algo + "/" + proto;
}

// Why AlltoAll is not available, from the first selected rank that says so; "" when some rank
// has one.
std::string alltoall_reason(const LoadedCaptures& loaded) {
  std::string reason;
  for (const auto& f : loaded.files) {
    if (!f->alltoall.alltoalls.empty()) return "";
    if (reason.empty()) reason = f->alltoall.reason;
  }
  return reason;
}

// Whether an AlltoAll of some selected rank had a Send/Recv to the rank itself without KernelCh.
bool alltoall_self_copy_untimed(const LoadedCaptures& loaded) {
  for (const auto& f : loaded.files) {
    if (f->alltoall.self_ops_without_kernel_channels > 0) return true;
  }
  return false;
}

// Text (kTable) or Markdown (kMarkdown).
void write_text(const LoadedCaptures& loaded, const CommonOptions& o, const std::string& coll,
                const std::vector<BandwidthRow>& rows, const std::vector<SwitchPoint>& switches,
                OutputFormat f, std::string& out) {
  render_line(fmt::format("{}: {} file(s), {} communicator(s), --coll {}", o.path,
                          loaded.files.size(), loaded.comms.size(), coll),
              f, out);
  if (coll == "alltoall") {
    const std::string reason = alltoall_reason(loaded);
    if (!reason.empty()) {
      render_line("AlltoAll is not available from these plugin dumps: " + reason + ".", f, out);
    }
  }
  for (const auto& comm : loaded.comms) {
    if (f == OutputFormat::kMarkdown) {
      out += "## " + describe_comm(comm) + "\n\n";
    } else {
      out += "\n" + describe_comm(comm) + "\n";
    }
    TextTable t = row_table(rows, comm.comm_hash);
    if (t.rows.empty()) {
      render_line("  no collectives for --coll " + coll, f, out);
      continue;
    }
    t.title = fmt::format(
        "Collectives (nccl-tests conventions, n = {}; time = GPU span per rank, median over "
        "instances, mean over ranks; period = GPU start to GPU start of back-to-back launches, "
        "median over pairs, mean over ranks; true = last rank's GPU start to last rank's GPU "
        "stop)",
        comm.nranks);
    render_table(t, f, out);
    std::uint64_t untimed = 0;
    bool alltoall = false;
    for (const auto& r : rows) {
      if (r.comm_hash != comm.comm_hash) continue;
      untimed += r.instances - r.timed_instances;
      alltoall = alltoall || r.func == nccl_func_name(NcclFunc::kAllToAll);
    }
    if (untimed > 0) {
      render_line(
          fmt::format("{} instance(s) have no GPU span on any rank (no KernelCh events, only "
                      "stale ones, or no usable clock): not timed",
                      untimed),
          f, out);
    }
    if (alltoall && alltoall_self_copy_untimed(loaded)) {
      render_line(
          "AlltoAll: each rank's Send/Recv to itself has no KernelCh events; time and true time "
          "cover the transfers between ranks, the period the whole launch",
          f, out);
    }
    std::string lines;
    for (const auto& s : switches) {
      if (s.comm_hash != comm.comm_hash) continue;
      lines += fmt::format("{}{}: {} up to {} B -> {} from {} B (busbw {} -> {} GB/s)",
                           f == OutputFormat::kMarkdown ? "\n- " : "\n  ", s.func,
                           choice(s.from_algo, s.from_proto), s.below_bytes,
                           choice(s.to_algo, s.to_proto), s.at_bytes, gbps(s.busbw_below_gbps),
                           gbps(s.busbw_at_gbps));
    }
    if (!lines.empty()) {
      render_line("Switch points (NCCL's algorithm/protocol choice changes)" + lines, f, out);
    }
  }
}

void write_json(const LoadedCaptures& loaded, const CommonOptions& o, const std::string& coll,
                const std::vector<BandwidthRow>& rows, const std::vector<SwitchPoint>& switches,
                const EventBandwidth* events, std::string& out) {
  JsonWriter w(out);
  w.begin_object();
  w.field("schema", "npkit-analyze.npkt-bandwidth");
  w.field("schema_version", 2);
  w.field("path", o.path);
  w.field("coll", coll);
  w.key("communicators");
  w.begin_array();
  for (const auto& comm : loaded.comms) {
    w.begin_object();
    w.field("hash", comm_hex(comm.comm_hash));
    w.field("name", comm.name);
    w.field("nranks", comm.nranks);
    w.field("instances", static_cast<std::uint64_t>(comm.instances.size()));
    w.field("instances_missing_ranks", comm.instances_missing_ranks);
    w.end_object();
  }
  w.end_array();
  w.key("collectives");
  w.begin_array();
  for (const auto& r : rows) {
    w.begin_object();
    w.field("comm", comm_hex(r.comm_hash));
    w.field("collective", r.func);
    w.field("size_bytes", r.bytes);
    w.field("count", r.count);
    w.field("type", r.type);
    w.field("algo", r.algo);
    w.field("proto", r.proto);
    w.field("nranks", r.nranks);
    w.field("instances", r.instances);
    w.field("untimed_instances", r.instances - r.timed_instances);
    if (!r.ranks.empty()) {
      w.field("time_ns", r.time_ns);
      w.field("algbw_gbps", r.algbw_gbps);
      w.field("busbw_gbps", r.busbw_gbps);
    }
    w.field("period_pairs", r.period_pairs);
    if (r.period_ns) {
      w.field("period_ns", *r.period_ns);
      w.field("period_algbw_gbps", r.period_algbw_gbps);
      w.field("period_busbw_gbps", r.period_busbw_gbps);
    }
    w.field("true_instances", r.true_instances);
    if (r.true_time_ns) {
      w.field("true_time_ns", *r.true_time_ns);
      w.field("true_algbw_gbps", r.true_algbw_gbps);
      w.field("true_busbw_gbps", r.true_busbw_gbps);
    }
    w.key("per_rank");
    w.begin_array();
    for (const auto& m : r.ranks) {
      w.begin_object();
      w.field("rank", m.rank);
      w.field("instances", m.instances);
      w.field("median_ns", m.median_ns);
      w.field("period_pairs", m.period_pairs);
      if (m.period_pairs > 0) w.field("period_median_ns", m.period_median_ns);
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.key("switch_points");
  w.begin_array();
  for (const auto& s : switches) {
    w.begin_object();
    w.field("comm", comm_hex(s.comm_hash));
    w.field("collective", s.func);
    w.field("below_bytes", s.below_bytes);
    w.field("at_bytes", s.at_bytes);
    w.field("from_algo", s.from_algo);
    w.field("from_proto", s.from_proto);
    w.field("to_algo", s.to_algo);
    w.field("to_proto", s.to_proto);
    w.field("busbw_below_gbps", s.busbw_below_gbps);
    w.field("busbw_at_gbps", s.busbw_at_gbps);
    w.end_object();
  }
  w.end_array();
  const std::string reason = alltoall_reason(loaded);
  if (!reason.empty()) w.field("alltoall_unavailable", reason);
  if (events != nullptr) {
    w.key("event_records");
    w.begin_object();
    write_span_bandwidth_fields(w, events->view, events->collectives, events->spans);
    w.end_object();
  }
  write_warnings_json(w, loaded.diagnostics);
  w.end_object();
}

// The event records' spans through the phase rules (--phase-map, the names' hints, the built-in
// rules): collectives from collective-level spans and every span by size bucket.
Result<EventBandwidth> event_bandwidth(LoadedCaptures& loaded, const CommonOptions& o,
                                       const std::string& coll) {
  const EventRecords& events = loaded.events;
  auto merged = read_merged<SpanBandwidthSinks>(
      EventRecordSpanSource(events), o, loaded.diagnostics,
      [&] { return SpanBandwidthSinks(events.phases, events.names.base_names(), coll); });
  if (!merged) return merged.error();
  std::set<std::uint32_t> ranks;
  for (const auto& f : events.files) ranks.insert(f.rank);
  EventBandwidth out;
  out.view =
      SpanBandwidthView{o.path, coll, "auto", false, static_cast<std::uint32_t>(ranks.size())};
  out.collectives = merged->collectives.summarise(out.view.nranks);
  out.spans = merged->spans.summarise();
  return out;
}

}  // namespace

Result<int> run_npkt_bandwidth(const CommonOptions& o, const std::string& coll,
                               CliContext& context) {
  if (!valid_coll_option(coll)) {
    return Error{"--coll '" + coll + "': expected one of " + coll_option_list()};
  }
  auto loaded = load_npkt_input(o);
  if (!loaded) return loaded.error();
  const auto rows = bandwidth_rows(npkt_run(o.path, loaded->comms), coll);
  const auto switches = switch_points(rows);
  std::optional<EventBandwidth> events;
  if (has_event_records(*loaded)) {
    auto computed = event_bandwidth(*loaded, o, coll);
    if (!computed) return computed.error();
    events = std::move(*computed);
  }
  const EventBandwidth* event_rows = events ? &*events : nullptr;
  std::string text;
  const OutputFormat f = output_format(o);
  if (f == OutputFormat::kJson) {
    write_json(*loaded, o, coll, rows, switches, event_rows, text);
  } else if (f == OutputFormat::kCsv) {
    render_csv(csv_table(rows), text);
    if (events) {
      text += "\n";
      write_span_bandwidth(events->view, events->collectives, events->spans, loaded->diagnostics, f,
                           text);
    }
  } else {
    write_text(*loaded, o, coll, rows, switches, f, text);
    if (events) {
      if (f == OutputFormat::kMarkdown) {
        text += "## Event records\n\n";
      } else {
        text +=
            "\nEvent records (phase rules: --phase-map, then the names' hints, then the "
            "built-in rules)\n";
      }
      write_span_bandwidth(events->view, events->collectives, events->spans, loaded->diagnostics, f,
                           text);
    }
  }
  NPKIT_TRY(write_output(o, text, context));
  print_warnings(loaded->diagnostics, o, context);
  return 0;
}

}  // namespace npkit::cli
