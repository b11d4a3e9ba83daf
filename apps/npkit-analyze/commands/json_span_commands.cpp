#include "commands/json_span_commands.hpp"

#include <fmt/format.h>

#include <memory>
#include <set>
#include <tuple>

#include "analysis/inventory/dump_inventory.hpp"
#include "import/chrome_json/chrome_input.hpp"
#include "import/chrome_json/json_span_source.hpp"
#include "output/chrome_trace_writer.hpp"
#include "output/render.hpp"
#include "util/saturating.hpp"

namespace npkit::cli {
namespace {

struct LoadedJsonSpans {
  std::string path;
  ingest::JsonSpanInput input;
  ingest::JsonSpanReadOptions read;
  ingest::TrackBook tracks;
  Diagnostics diagnostics;
};

Result<std::unique_ptr<LoadedJsonSpans>> load_json_spans(const CommonOptions& o,
                                                         const std::vector<std::string>& files) {
  if (o.cpu_record_size != 0) {
    return Error{"--cpu-record-size applies to legacy NPKit dump directories; " + o.path +
                 " is a JSON trace"};
  }
  auto loaded = std::make_unique<LoadedJsonSpans>();
  loaded->path = o.path;
  auto filter = RankFilter::parse(o.ranks);
  if (!filter) return filter.error();
  loaded->read.ranks = *filter;
  auto user = read_user_phase_map(o);
  if (!user) return user.error();
  auto input = ingest::open_json_span_input(
      files, o.event_table, PhaseMap::builtin().with_user_rules(*user), loaded->diagnostics);
  if (!input) return input.error();
  loaded->input = std::move(*input);
  return loaded;
}

// After a read: --ranks must have selected a rank the trace holds.
Status check_selected_ranks(const CommonOptions& o, const LoadedJsonSpans& loaded) {
  const auto& seen = loaded.tracks.seen_ranks();
  if (seen.empty() || !loaded.tracks.ranks().empty()) return Ok{};
  return Error{fmt::format("--ranks {}: no such rank in {} (it has ranks {}..{})", o.ranks, o.path,
                           *seen.begin(), *seen.rbegin())};
}

TextTable inventory_table(const InventorySink& inv) {
  const RankInventory totals = inv.totals();
  const TimeScale scale = time_scale_for(sat_sub(totals.last_ns, totals.first_ns));
  TextTable t;
  t.columns = {"rank",  "gpu tracks", "cpu tracks", "events",
               "pairs", "unmatched",  "max depth",  scale.header("span")};
  for (const auto& r : inv.ranks()) {
    t.add_row({std::to_string(r.rank), std::to_string(r.gpu_files), std::to_string(r.cpu_files),
               std::to_string(r.records), std::to_string(r.pairs),
               std::to_string(r.unmatched_entries + r.unmatched_exits), std::to_string(r.max_depth),
               r.first_ns <= r.last_ns ? scale(static_cast<double>(sat_sub(r.last_ns, r.first_ns)))
                                       : "-"});
  }
  return t;
}

void write_span_info_json(const CommonOptions& o, ChromeSpanInput& loaded, const InventorySink& inv,
                          std::string& out) {
  const RankInventory t = inv.totals();
  JsonWriter w(out);
  w.begin_object();
  w.field("schema", "npkit-analyze.info");
  w.field("schema_version", 1);
  w.field("path", o.path);
  w.field("variant", "Chrome trace JSON");
  w.key("files");
  w.begin_array();
  for (const auto& f : loaded.spans().files) {
    w.begin_object();
    w.field("path", f.path);
    w.field("producer", ingest::trace_producer_name(f.identity.producer));
    w.field("reason", f.identity.reason);
    w.field("bytes", f.bytes);
    w.field("events", f.events);
    w.end_object();
  }
  w.end_array();
  w.key("event_table");
  w.begin_object();
  w.field("name", loaded.spans().names->table().label());
  w.field("reason", loaded.spans().table_reason);
  w.field("names_added", loaded.spans().names->names_added());
  w.end_object();
  w.key("totals");
  w.begin_object();
  w.field("ranks", static_cast<std::uint64_t>(inv.ranks().size()));
  w.field("tracks", t.nonempty_tracks);
  w.field("events", t.records);
  w.field("pairs", t.pairs);
  w.field("unmatched", t.unmatched_entries + t.unmatched_exits);
  w.field("max_depth", t.max_depth);
  w.end_object();
  w.key("time_span");
  w.begin_object();
  if (t.first_ns <= t.last_ns) {
    w.field("first_ns", t.first_ns);
    w.field("last_ns", t.last_ns);
    w.field("duration_ns", sat_sub(t.last_ns, t.first_ns));
  }
  w.end_object();
  w.key("ranks");
  w.begin_array();
  for (const auto& r : inv.ranks()) {
    w.begin_object();
    w.field("rank", r.rank);
    w.field("gpu_tracks", r.gpu_files);
    w.field("cpu_tracks", r.cpu_files);
    w.field("events", r.records);
    w.field("pairs", r.pairs);
    w.field("unmatched_entries", r.unmatched_entries);
    w.field("unmatched_exits", r.unmatched_exits);
    w.field("max_depth", r.max_depth);
    if (r.first_ns <= r.last_ns) {
      w.field("first_ns", r.first_ns);
      w.field("last_ns", r.last_ns);
    }
    w.end_object();
  }
  w.end_array();
  write_warnings_json(w, loaded.diagnostics());
  w.end_object();
}

void write_span_info_text(const CommonOptions& o, ChromeSpanInput& loaded, const InventorySink& inv,
                          OutputFormat format, std::string& out) {
  const RankInventory t = inv.totals();
  std::vector<std::string> lines;
  lines.push_back(
      fmt::format("trace         {} ({} file(s))", o.path, loaded.spans().files.size()));
  for (const auto& f : loaded.spans().files) {
    lines.push_back(fmt::format("producer      {}: {} ({}; {} events)", f.path,
                                ingest::trace_producer_name(f.identity.producer), f.identity.reason,
                                f.events));
  }
  lines.push_back(fmt::format("event table   {} ({})", loaded.spans().names->table().label(),
                              loaded.spans().table_reason));
  if (t.first_ns <= t.last_ns) {
    const TimeScale scale = time_scale_for(sat_sub(t.last_ns, t.first_ns));
    lines.push_back(fmt::format("time span     {} {}, from {}",
                                scale(static_cast<double>(sat_sub(t.last_ns, t.first_ns))),
                                scale.unit, describe_time(t.first_ns)));
  }
  lines.push_back(
      fmt::format("totals        {} events, {} pairs, {} unmatched, nesting depth up "
                  "to {}",
                  t.records, t.pairs, t.unmatched_entries + t.unmatched_exits, t.max_depth));
  for (const auto& line : lines) render_line(line, format, out);
  if (format != OutputFormat::kMarkdown) out += "\n";
  render_table(inventory_table(inv), format, out);
  if (!inv.unmatched_examples().empty()) {
    if (format != OutputFormat::kMarkdown) out += "\n";
    render_line("unmatched events (first ones)", format, out);
    for (const auto& e : inv.unmatched_examples()) {
      render_line(
          fmt::format("  {} event {}: {} {}", describe_track(e.track), e.record, e.name,
                      e.kind == EventKind::kEntry ? "ENTRY without EXIT" : "EXIT without ENTRY"),
          format, out);
    }
  }
}

Result<int> info(const CommonOptions& o, CliContext& context) {
  auto input = open_input(o, context);
  if (!input) return input.error();
  auto& loaded = dynamic_cast<ChromeSpanInput&>(**input);
  Run run;
  auto merged = read_run<InventorySink>(
      loaded, run, [&] { return InventorySink(loaded.spans().names->table()); });
  if (!merged) return merged.error();
  std::string text;
  const OutputFormat format = output_format(o);
  if (format == OutputFormat::kJson) {
    write_span_info_json(o, loaded, *merged, text);
  } else if (format == OutputFormat::kCsv) {
    render_csv(inventory_table(*merged), text);
  } else {
    write_span_info_text(o, loaded, *merged, format, text);
  }
  NPKIT_TRY(write_output(o, text, context));
  print_warnings(loaded.diagnostics(), o, context);
  return 0;
}

// Feeds the trace writer, telling it each time the track changes.
class WriterFeeder : public ingest::JsonSpanTarget {
 public:
  explicit WriterFeeder(ChromeTraceWriter& writer) : writer_(writer) {}
  void on_span(const Span& span, TimeDomain domain) override {
    switch_to(span.track, domain);
    writer_.on_span(span);
  }
  void on_unmatched(const UnmatchedEvent& event, TimeDomain domain) override {
    switch_to(event.track, domain);
    writer_.on_unmatched(event);
  }

 private:
  void switch_to(const TrackRef& track, TimeDomain domain) {
    if (has_current_ && current_ == track) return;
    writer_.begin_track(TrackFile{track, std::string(), 0}, domain);
    current_ = track;
    has_current_ = true;
  }
  ChromeTraceWriter& writer_;
  TrackRef current_;
  bool has_current_ = false;
};

// Reads nothing but the counts: the first pass of `trace` (time origins, every event name).
class NullTarget : public ingest::JsonSpanTarget {
 public:
  void on_span(const Span&, TimeDomain) override {}
  void on_unmatched(const UnmatchedEvent&, TimeDomain) override {}
};

Status write_span_trace(LoadedJsonSpans& loaded, const CommonOptions& o,
                        const TraceOrigins& origins, std::ostream& out, const std::string& out_name,
                        std::uint64_t& events) {
  TraceMetadata meta;
  meta.source = o.path;
  meta.event_table = loaded.input.names->table().label();
  meta.cpu_record_size = loaded.tracks.cpu_record_size();
  meta.gpu_clock = "times read from the Chrome trace JSON (microseconds, to the nearest ns)";
  ChromeTraceWriter writer(out, loaded.input.names->table(), loaded.input.names->phases(), origins,
                           meta);
  WriterFeeder feeder(writer);
  ingest::TrackBook again;
  NPKIT_TRY(ingest::read_json_spans(loaded.input, loaded.read, again, feeder, loaded.diagnostics));
  NPKIT_TRY(writer.finish(out_name));
  events = writer.events_written();
  return Ok{};
}

Result<int> trace(const CommonOptions& o, LoadedJsonSpans& loaded, CliContext& context) {
  // Pass 1: the time origins (and every event name, so the writer's name table is complete).
  // Its warnings repeat pass 2's, so they are dropped.
  Diagnostics first_pass;
  NullTarget counts;
  NPKIT_TRY(ingest::read_json_spans(loaded.input, loaded.read, loaded.tracks, counts, first_pass));
  NPKIT_TRY(check_selected_ranks(o, loaded));
  TraceOriginSink origins;
  for (const auto& t : loaded.tracks.tracks()) {
    origins.end_track(TrackFile{t.track, t.path, 0}, t.stats);
  }
  NPKIT_TRY(write_trace_output(
      o, context, [&](std::ostream& out, const std::string& name) -> Result<std::uint64_t> {
        std::uint64_t events = 0;
        NPKIT_TRY(write_span_trace(loaded, o, origins.origins(), out, name, events));
        return events;
      }));
  print_warnings(loaded.diagnostics, o, context);
  return 0;
}

// Loads the trace, then runs `command` on it.
template <typename Command>
Result<int> on_loaded(const CommonOptions& o, const std::vector<std::string>& files,
                      Command command) {
  auto loaded = load_json_spans(o, files);
  if (!loaded) return loaded.error();
  return command(**loaded);
}

}  // namespace

Result<int> run_json_span_info(const CommonOptions& o, const std::vector<std::string>&,
                               CliContext& context) {
  return info(o, context);
}

Result<int> run_json_span_trace(const CommonOptions& o, const std::vector<std::string>& files,
                                CliContext& context) {
  return on_loaded(o, files, [&](LoadedJsonSpans& loaded) { return trace(o, loaded, context); });
}

}  // namespace npkit::cli
