// `npkit-analyze bandwidth PATH --coll allreduce`: nccl-tests-style table per collective and
// size, and span durations/bandwidths per event type and size bucket.
#include <fmt/format.h>

#include <memory>

#include "bandwidth/collective_bandwidth.hpp"
#include "bandwidth/nccl_tests_convention.hpp"
#include "bandwidth/span_bandwidth.hpp"
#include "commands/command.hpp"
#include "commands/npkt_input.hpp"
#include "render/text_table.hpp"

namespace npkit::cli {
namespace {

struct BandwidthOptions {
  CommonOptions common;
  std::string coll = "all";
  std::string view = "auto";
  bool per_rank = false;
};

// Both bandwidth views, fed from one pass over the dump.
struct BandwidthSinks : SpanSink {
  CollectiveBandwidthSink collectives;
  SpanBandwidthSink spans;
  BandwidthSinks(const PhaseAssignment& phases, const EventTable& table, const std::string& coll)
      : collectives(phases, coll), spans(phases, table, coll) {}
  void begin_track(const TrackFile& f, TimeDomain d) override { collectives.begin_track(f, d); }
  void on_span(const Span& s) override {
    collectives.on_span(s);
    spans.on_span(s);
  }
  void merge(BandwidthSinks&& other) {
    collectives.merge(other.collectives);
    spans.merge(std::move(other.spans));
  }
};

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

void write_json(const LoadedDump& d, const BandwidthOptions& o, std::uint32_t nranks,
                const std::vector<CollectiveSizeRow>& colls,
                const std::vector<SpanBandwidthRow>& spans, std::string& out) {
  JsonWriter w(out);
  w.begin_object();
  w.field("schema", "npkit-analyze.bandwidth");
  w.field("schema_version", 1);
  w.field("path", o.common.path);
  w.field("coll", o.coll);
  w.field("nranks", nranks);
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
  write_warnings_json(w, d.diagnostics);
  w.end_object();
}

Result<int> run_bandwidth(const BandwidthOptions& o, CliContext& context) {
  if (is_npkt_input(o.common.path)) return run_npkt_bandwidth(o.common, o.coll, context);
  if (!valid_coll_option(o.coll)) {
    return Error{"--coll '" + o.coll + "': expected one of " + coll_option_list()};
  }
  auto loaded = load_dump(o.common, context);
  if (!loaded) return loaded.error();
  const auto nranks = static_cast<std::uint32_t>(loaded->dump.layout.ranks.size());
  auto merged = read_merged<BandwidthSinks>(*loaded, o.common, [&] {
    return BandwidthSinks(loaded->phases, loaded->dump.table, o.coll);
  });
  if (!merged) return merged.error();
  const auto coll_rows = merged->collectives.summarise(nranks);
  const auto span_rows = merged->spans.summarise();
  std::string text;
  const OutputFormat format = output_format(o.common);
  if (format == OutputFormat::kJson) {
    write_json(*loaded, o, nranks, coll_rows, span_rows, text);
  } else if (format == OutputFormat::kCsv) {
    const bool collectives = o.view == "collectives" || (o.view == "auto" && !coll_rows.empty());
    render_csv(collectives ? collective_table(coll_rows) : span_table(span_rows, true), text);
  } else {
    if (o.view != "events") {
      TextTable t = collective_table(coll_rows);
      t.title = fmt::format(
          "Collectives (nccl-tests conventions, n = {}; time = GPU span per rank, first ENTRY to "
          "last EXIT over its buffers)",
          nranks);
      if (coll_rows.empty()) {
        text += "No collective-level events for --coll " + o.coll +
                " (such as ALL_REDUCE_RING; send/recv events carry per-channel chunk sizes, so "
                "collectives cannot be rebuilt from them).\n";
      } else {
        render_text(t, text);
      }
      text += "\n";
    }
    if (o.view != "collectives") {
      TextTable t = span_table(span_rows, o.per_rank);
      t.title = o.per_rank ? "Events by size bucket (per rank, then all ranks)"
                           : "Events by size bucket (all ranks)";
      render_text(t, text);
    }
  }
  NPKIT_TRY(write_output(o.common, text, context));
  print_warnings(loaded->diagnostics, o.common, context);
  return 0;
}

}  // namespace

void register_bandwidth(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<BandwidthOptions>();
  CLI::App* cmd =
      app.add_subcommand("bandwidth",
                         "Time, algbw and busbw per collective and size; span bandwidth "
                         "per event type and size bucket");
  add_common_options(*cmd, options->common);
  cmd->add_option(
         "--coll", options->coll,
         "Collective: all, allreduce, allgather, reducescatter, alltoall, broadcast, sendrecv "
         "(.npkt dumps: also reduce)")
      ->capture_default_str();
  cmd->add_option("--view", options->view,
                  "What to show: auto (both; CSV: collectives if any), collectives, events")
      ->check(CLI::IsMember({"auto", "collectives", "events"}))
      ->capture_default_str();
  cmd->add_flag("--per-rank", options->per_rank, "Also list event rows per rank in the text table");
  cmd->callback([options, &context] { context.outcome = run_bandwidth(*options, context); });
}

}  // namespace npkit::cli
