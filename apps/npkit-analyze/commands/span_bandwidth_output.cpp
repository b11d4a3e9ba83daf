#include "commands/span_bandwidth_output.hpp"

#include <fmt/format.h>

#include <string_view>

#include "output/text_table.hpp"

namespace npkit::cli {
namespace {

std::string gbps(double v) {
  return fmt::format("{:.2f}", v);
}

TextTable collective_table(const std::vector<CollectiveSizeRow>& rows) {
  TextTable t;
  t.columns = {"collective",   "algo",          "size (B)",          "count",
               "ranks",        "time p50 (us)", "min (us)",          "max (us)",
               "algbw (GB/s)", "busbw (GB/s)",  "all-ranks p50 (us)"};
  for (const auto& r : rows) {
    t.add_row({r.func, r.algo, std::to_string(r.size_field), std::to_string(r.instances),
               std::to_string(r.ranks), us(r.rank_time_ns.p50), us(r.rank_time_ns.min),
               us(r.rank_time_ns.max), gbps(r.algbw_gbps), gbps(r.busbw_gbps),
               r.cross_rank_time_ns ? us(r.cross_rank_time_ns->p50) : "-"});
  }
  return t;
}

TextTable span_table(const std::vector<SpanBandwidthRow>& rows, bool per_rank) {
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

void json_summary(JsonWriter& w, std::string_view key, const SampleSummary& s) {
  w.key(key);
  w.begin_object();
  w.field("count", s.count);
  w.field("min", s.min);
  w.field("p10", s.p10);
  w.field("p50", s.p50);
  w.field("p90", s.p90);
  w.field("max", s.max);
  w.field("mean", s.mean);
  w.end_object();
}

}  // namespace

void write_span_bandwidth_fields(JsonWriter& w, const SpanBandwidthView& v,
                                 const std::vector<CollectiveSizeRow>& colls,
                                 const std::vector<SpanBandwidthRow>& spans) {
  w.field("coll", v.coll);
  w.field("nranks", v.nranks);
  w.key("collectives");
  w.begin_array();
  for (const auto& r : colls) {
    w.begin_object();
    w.field("collective", r.func);
    w.field("algo", r.algo);
    w.field("size_bytes", r.size_field);
    w.field("algbw_bytes", r.algbw_bytes);
    w.field("instances", r.instances);
    w.field("ranks", r.ranks);
    json_summary(w, "rank_time_ns", r.rank_time_ns);
    if (r.cross_rank_time_ns) json_summary(w, "all_ranks_time_ns", *r.cross_rank_time_ns);
    w.field("algbw_gbps", r.algbw_gbps);
    w.field("busbw_gbps", r.busbw_gbps);
    w.key("per_rank");
    w.begin_array();
    for (const auto& pr : r.per_rank) {
      w.begin_object();
      w.field("rank", pr.rank);
      json_summary(w, "time_ns", pr.time_ns);
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.key("events");
  w.begin_array();
  for (const auto& r : spans) {
    w.begin_object();
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
    w.end_object();
  }
  w.end_array();
}

void write_span_bandwidth(const SpanBandwidthView& v,
                          const std::vector<CollectiveSizeRow>& collectives,
                          const std::vector<SpanBandwidthRow>& spans,
                          const Diagnostics& diagnostics, OutputFormat format, std::string& out) {
  if (format == OutputFormat::kJson) {
    JsonWriter w(out);
    w.begin_object();
    w.field("schema", "npkit-analyze.bandwidth");
    w.field("schema_version", 1);
    w.field("path", v.path);
    write_span_bandwidth_fields(w, v, collectives, spans);
    write_warnings_json(w, diagnostics);
    w.end_object();
    return;
  }
  if (format == OutputFormat::kCsv) {
    const bool by_collective =
        v.view == "collectives" || (v.view == "auto" && !collectives.empty());
    render_csv(by_collective ? collective_table(collectives) : span_table(spans, true), out);
    return;
  }
  if (v.view != "events") {
    TextTable t = collective_table(collectives);
    t.title = fmt::format(
        "Collectives (nccl-tests conventions, n = {}; time = GPU span per rank, first ENTRY to "
        "last EXIT over its buffers)",
        v.nranks);
    if (collectives.empty()) {
      render_line("No collective-level events for --coll " + v.coll +
                      " (such as ALL_REDUCE_RING; send/recv events carry per-channel chunk "
                      "sizes, so collectives cannot be rebuilt from them).",
                  format, out);
    } else {
      render_table(t, format, out);
    }
    if (format != OutputFormat::kMarkdown) out += "\n";
  }
  if (v.view != "collectives") {
    TextTable t = span_table(spans, v.per_rank);
    t.title = v.per_rank ? "Events by size bucket (per rank, then all ranks)"
                         : "Events by size bucket (all ranks)";
    render_table(t, format, out);
  }
}

}  // namespace npkit::cli
