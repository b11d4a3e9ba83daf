#include "output/bandwidth_output.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "output/bandwidth_columns.hpp"
#include "output/driver_results_output.hpp"
#include "output/json_writer.hpp"
#include "output/latency_columns.hpp"
#include "output/run_text.hpp"

namespace npkit {
namespace {

// Some row of `comm` has a kernel compute time.
bool has_compute(const std::vector<BandwidthRow>& rows, const RunCommunicator& comm) {
  return std::any_of(rows.begin(), rows.end(), [&](const BandwidthRow& r) {
    return r.compute_ns && r.comm_hash == comm.hash;
  });
}

TextTable event_table(const std::vector<SpanBandwidthRow>& rows, bool per_rank) {
  TextTable t;
  t.columns = {"rank", "event", "domain", "size bucket (B)", "count", "dur p50 (us)",
               "p90",  "min",   "max",    "bw p50 (GB/s)",   "p90",   "min",
               "max"};
  for (const auto& r : rows) {
    if (!per_rank && r.rank != kAllRanks) continue;
    t.add_row({r.rank == kAllRanks ? "all" : std::to_string(r.rank), r.name, r.gpu ? "gpu" : "cpu",
               std::to_string(r.bucket), std::to_string(r.duration_ns.count), us(r.duration_ns.p50),
               us(r.duration_ns.p90), us(r.duration_ns.min), us(r.duration_ns.max),
               gbps(r.gbps.p50), gbps(r.gbps.p90), gbps(r.gbps.min), gbps(r.gbps.max)});
  }
  return t;
}

void write_collectives_text(const BandwidthReport& b, OutputFormat f, std::string& out) {
  const bool markdown = f == OutputFormat::kMarkdown;
  for (const auto& comm : b.run->comms) {
    if (markdown) {
      out += "## " + describe_communicator(comm) + "\n\n";
    } else {
      out += "\n" + describe_communicator(comm) + "\n";
    }
    render_line("Times: " + comm.time_source, f, out);
    TextTable t = spec_table(bandwidth_columns(*b.run), b.rows, kTextView,
                             [&](const BandwidthRow& r) { return r.comm_hash == comm.hash; });
    if (t.rows.empty() && b.run->driver_only) {
      render_line(
          "No collective instances: nccl-tests' results hold one averaged time per size, no "
          "per-instance times (its table follows)",
          f, out);
    } else if (t.rows.empty()) {
      render_line("No collective instances for --coll " + b.coll, f, out);
    } else {
      t.title = bandwidth_table_title(comm.nranks);
      if (has_compute(b.rows, comm)) t.title += compute_title_note();
      render_table(t, f, out);
    }
    if (!comm.alltoall_unavailable.empty() && b.coll == "alltoall") {
      render_line("AlltoAll is not available from this input: " + comm.alltoall_unavailable + ".",
                  f, out);
    }
    std::uint64_t untimed = 0;
    std::uint64_t not_sampled = 0;
    std::uint64_t disagree = 0;
    for (const auto& r : b.rows) {
      if (r.comm_hash != comm.hash) continue;
      untimed += r.instances - r.timed_instances - r.not_sampled_instances;
      not_sampled += r.not_sampled_instances;
      disagree += r.host_disagree_instances;
    }
    if (not_sampled > 0) {
      render_line(fmt::format("NPKIT_SAMPLE={} left {} instance(s) out of GPU timing: times rest "
                              "on the sampled instances (flag sampled k of n)",
                              comm.sample, not_sampled),
                  f, out);
    }
    if (untimed > 0) {
      render_line(fmt::format("{} instance(s) have no GPU time on any rank: not timed", untimed), f,
                  out);
    }
    if (disagree > 0) {
      render_line(fmt::format("{} instance(s) have a rank completing before another rank of its "
                              "host arrived: the times of one host disagree, and the times of "
                              "their rows (flag N host-disagree) may be wrong",
                              disagree),
                  f, out);
    }
    for (const auto& note : comm.notes) render_line(note, f, out);
    std::string lines;
    for (const auto& s : b.switches) {
      if (s.comm_hash != comm.hash) continue;
      lines += fmt::format("{}{}: {}/{} up to {} B -> {}/{} from {} B (busbw {} -> {} GB/s)",
                           markdown ? "\n- " : "\n  ", s.func, s.from_algo, s.from_proto,
                           s.below_bytes, s.to_algo, s.to_proto, s.at_bytes,
                           gbps_or_dash(s.busbw_below_gbps), gbps_or_dash(s.busbw_at_gbps));
    }
    if (!lines.empty()) {
      render_line("Switch points (NCCL's algorithm/protocol choice changes)" + lines, f, out);
    }
  }
  if (b.run->driver_only) {
    const TextTable t = driver_results_table(b.run->driver, b.coll, f);
    if (t.rows.empty()) {
      render_section_line("No nccl-tests rows for --coll " + b.coll, f, out);
    } else {
      render_block(t, f, out);
    }
  }
  if (b.driver) render_driver_comparison(*b.driver, f, out);
}

void write_events_text(const BandwidthReport& b, OutputFormat f, std::string& out) {
  if (f != OutputFormat::kMarkdown) out += "\n";
  if (!b.has_spans) {
    render_line(fmt::format("Events by size bucket: none (this {} holds no spans)",
                            input_kind_name(b.run->kind)),
                f, out);
    return;
  }
  TextTable t = event_table(b.events, b.per_rank);
  t.title = b.per_rank ? "Events by size bucket (per rank, then all ranks)"
                       : "Events by size bucket (all ranks)";
  render_table(t, f, out);
}

void json_summary(JsonWriter& w, std::string_view key, const SampleSummary& s) {
  w.object(key, [&] {
    w.field("count", s.count);
    w.field("min", s.min);
    w.field("p10", s.p10);
    w.field("p50", s.p50);
    w.field("p90", s.p90);
    w.field("max", s.max);
    w.field("mean", s.mean);
  });
}

// One switch point as an object; `comm` ("" for none) names its communicator.
void write_switch_point_json(JsonWriter& w, const SwitchPoint& s, const std::string& comm) {
  w.begin_object();
  if (!comm.empty()) w.field("comm", comm);
  w.field("collective", s.func);
  w.field("below_bytes", s.below_bytes);
  w.field("at_bytes", s.at_bytes);
  w.field("from_algo", s.from_algo);
  w.field("from_proto", s.from_proto);
  w.field("to_algo", s.to_algo);
  w.field("to_proto", s.to_proto);
  if (s.busbw_below_gbps > 0) w.field("busbw_below_gbps", s.busbw_below_gbps);
  if (s.busbw_at_gbps > 0) w.field("busbw_at_gbps", s.busbw_at_gbps);
  w.end_object();
}

void write_json(const BandwidthReport& b, const Diagnostics& diagnostics, std::string& out) {
  JsonWriter w(out);
  w.begin_object();
  w.field("schema", "npkit-analyze.bandwidth");
  w.field("schema_version", 2);
  w.field("path", b.run->path);
  w.field("input", input_kind_key(b.run->kind));
  w.field("coll", b.coll);
  w.objects("communicators", b.run->comms, [&](const auto& c) {
    w.field("comm", comm_key(c));
    w.field("name", c.name);
    w.field("nranks", c.nranks);
    w.key("ranks");
    w.begin_array();
    for (const auto& r : c.ranks) w.value(r.rank);
    w.end_array();
    w.field("instances", static_cast<std::uint64_t>(c.instances.size()));
    w.field("time_source", c.time_source);
    if (!c.alltoall_unavailable.empty()) w.field("alltoall_unavailable", c.alltoall_unavailable);
    w.values("notes", c.notes);
  });
  const TableSpec<BandwidthRow> columns = bandwidth_columns(*b.run);
  w.objects("collectives", b.rows, [&](const BandwidthRow& r) {
    write_spec_fields(w, columns, r);
    w.objects("per_rank", r.ranks, [&](const auto& m) {
      w.field("rank", m.rank);
      w.field("instances", m.instances);
      w.field("median_ns", m.median_ns);
      w.field("period_pairs", m.period_pairs);
      if (m.period_pairs > 0) {
        w.field("period_ns", m.period_ns);
        w.field("period_median_ns", m.period_median_ns);
      }
    });
  });
  if (b.run->driver_only) write_driver_results_json(w, b.run->driver, b.coll);
  if (b.driver) write_driver_comparison_json(w, *b.driver);
  w.key("switch_points");
  w.begin_array();
  for (const auto& s : b.switches) {
    write_switch_point_json(w, s,
                            s.comm_hash == 0 ? b.run->path : fmt::format("{:016x}", s.comm_hash));
  }
  w.end_array();
  w.field("has_spans", b.has_spans);
  w.objects("events", b.events, [&](const auto& r) {
    if (r.rank == kAllRanks) {
      w.field("rank", "all");
    } else {
      w.field("rank", r.rank);
    }
    w.field("event", r.name);
    w.field("domain", r.gpu ? "gpu" : "cpu");
    w.field("size_bucket", r.bucket);
    w.field("total_bytes", r.total_bytes);
    json_summary(w, "duration_ns", r.duration_ns);
    json_summary(w, "gbps", r.gbps);
  });
  write_warnings_json(w, diagnostics);
  w.end_object();
}

}  // namespace

std::string bandwidth_table_title(std::int32_t nranks) {
  return fmt::format(
      "Collectives (nccl-tests conventions, n = {}; time = a rank's time of an instance, median "
      "over instances, mean over ranks; period = a rank's longest burst of back-to-back launches, "
      "first start to last start over the launches between, mean over ranks: nccl-tests' time(us) "
      "less the last launch's own time over N; true = last rank's start to last rank's end, on one "
      "clock; "
      "timed = instances with a time; ranks = ranks timed of n; flags: untimed, few timed = under "
      "half the instances timed, N stale = N instances lost a rank's time to timestamps of other "
      "work, N host-disagree, N short = N instances with a member implausibly short)",
      nranks);
}

std::string compute_title_note() {
  return "; compute = the kernel's compute phase alone (NCCL's KernelPhase events, profiler API "
         "v7), median over instances, mean over ranks; compute busbw = size / compute time x the "
         "nccl-tests factor";
}

void render_bandwidth(const BandwidthReport& b, const Diagnostics& diagnostics, OutputFormat f,
                      std::string& out) {
  if (f == OutputFormat::kJson) {
    write_json(b, diagnostics, out);
    return;
  }
  if (f == OutputFormat::kCsv && b.view != "events" && b.driver) {
    render_table(driver_comparison_table(*b.driver, f), f, out);
    return;
  }
  if (f == OutputFormat::kCsv && b.view != "events" && b.rows.empty() && b.run->driver_only) {
    render_table(driver_results_table(b.run->driver, b.coll, f), f, out);
    return;
  }
  if (f == OutputFormat::kCsv) {
    const bool collectives = b.view == "collectives" || (b.view == "auto" && !b.rows.empty());
    render_table(collectives ? spec_table(bandwidth_columns(*b.run), b.rows, kCsvView)
                             : event_table(b.events, true),
                 f, out);
    return;
  }
  render_line(fmt::format("{}: {}, {} communicator(s), --coll {}", b.run->path,
                          input_kind_name(b.run->kind), b.run->comms.size(), b.coll),
              f, out);
  if (b.view != "events") write_collectives_text(b, f, out);
  if (b.view != "collectives") write_events_text(b, f, out);
}

void render_switch_points(const std::vector<SwitchPoint>& switches, std::uint64_t comm,
                          OutputFormat f, std::string& out) {
  TextTable t;
  t.title =
      "Switch points (sizes where NCCL's algorithm/protocol choice changes; busbw from the GPU "
      "span, nccl-tests conventions)";
  t.columns = {"collective", "below", "from", "busbw below", "at", "to", "busbw at"};
  const auto busbw = [](double v) { return v > 0 ? gbps(v) + " GB/s" : std::string("-"); };
  for (const auto& s : switches) {
    if (s.comm_hash != comm) continue;
    t.add_row({s.func, readable_bytes(s.below_bytes), s.from_algo + "/" + s.from_proto,
               busbw(s.busbw_below_gbps), readable_bytes(s.at_bytes), s.to_algo + "/" + s.to_proto,
               busbw(s.busbw_at_gbps)});
  }
  if (t.rows.empty()) {
    render_section_line("Switch points: none (one algorithm/protocol per collective across sizes)",
                        f, out);
    return;
  }
  render_block(t, f, out);
}

void render_latency(const std::vector<LatencyBucket>& latency, std::uint64_t comm, OutputFormat f,
                    std::string& out) {
  TextTable t = spec_table(latency_columns(), latency, kTextView,
                           [&](const LatencyBucket& b) { return b.comm_hash == comm; });
  t.title =
      "Latency by algorithm, protocol and size bucket [2^k, 2^(k+1)) B (every rank's GPU span "
      "per instance)";
  if (!t.rows.empty()) render_block(t, f, out);
}

void write_switch_points_json(JsonWriter& w, const std::vector<SwitchPoint>& switches,
                              std::uint64_t comm) {
  w.key("switch_points");
  w.begin_array();
  for (const auto& s : switches) {
    if (s.comm_hash == comm) write_switch_point_json(w, s, "");
  }
  w.end_array();
}

void write_latency_json(JsonWriter& w, const std::vector<LatencyBucket>& latency,
                        std::uint64_t comm) {
  const TableSpec<LatencyBucket> columns = latency_columns();
  w.key("latency");
  w.begin_array();
  for (const auto& b : latency) {
    if (b.comm_hash != comm) continue;
    w.begin_object();
    write_spec_fields(w, columns, b);
    w.end_object();
  }
  w.end_array();
}

}  // namespace npkit
