#include "commands/json_input.hpp"
#include "commands/span_bandwidth_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>

#include "bandwidth/collective_bandwidth.hpp"
#include "bandwidth/nccl_tests_convention.hpp"
#include "bandwidth/span_bandwidth.hpp"
#include "commands/cross_rank_output.hpp"
#include "ingest/chrome_json/json_span_source.hpp"
#include "ingest/chrome_json/plugin_cross_rank.hpp"
#include "inventory/dump_inventory.hpp"
#include "io/file_io.hpp"
#include "model/profiler_nccl_names.hpp"
#include "render/chrome_trace_writer.hpp"
#include "util/saturating.hpp"

namespace npkit::cli {
namespace {

constexpr std::string_view kJsonExtension = ".json";

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() > suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool is_npkit_event_file(std::string_view name) {
  return name.rfind("gpu_events_rank_", 0) == 0 || name.rfind("cpu_events_rank_", 0) == 0;
}

// The JSON files of PATH: the file itself, or the *.json files of a directory in name order.
Result<std::vector<std::string>> json_files(const std::string& path) {
  if (!io::is_directory(path)) return std::vector<std::string>{path};
  auto entries = io::list_directory(path);
  if (!entries) return entries.error();
  std::vector<std::string> files;
  for (const auto& e : *entries) {
    if (e.regular && ends_with(e.name, kJsonExtension))
      files.push_back(io::join_path(path, e.name));
  }
  if (files.empty()) return Error{path + ": no *.json file in the directory"};
  return files;
}

// ---- Span traces: NPKit's generator and our traces of legacy dumps ----

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

// Feeds one sink: each track begun when first met, all ended after the read, in track order.
class SinkFeeder : public ingest::JsonSpanTarget {
 public:
  explicit SinkFeeder(SpanSink& sink) : sink_(sink) {}
  void on_span(const Span& span, TimeDomain domain) override {
    begin(span.track, domain);
    sink_.on_span(span);
  }
  void on_unmatched(const UnmatchedEvent& event, TimeDomain domain) override {
    begin(event.track, domain);
    sink_.on_unmatched(event);
  }
  void finish(const std::vector<ingest::JsonTrack>& tracks) {
    for (const auto& t : tracks) {
      begin(t.track, t.stats.domain);
      sink_.end_track(TrackFile{t.track, t.path, 0}, t.stats);
    }
  }

 private:
  void begin(const TrackRef& track, TimeDomain domain) {
    if (has_last_ && last_ == track) return;
    if (begun_.insert(ingest::track_order(track)).second) {
      sink_.begin_track(TrackFile{track, std::string(), 0}, domain);
    }
    last_ = track;
    has_last_ = true;
  }
  SpanSink& sink_;
  std::set<std::tuple<std::uint32_t, int, std::uint32_t>> begun_;
  TrackRef last_;
  bool has_last_ = false;
};

// The span source of the shared report code: one sink (the trace's tracks interleave; the sinks
// fed this way — phase breakdown, inventory — keep no per-track state).
class JsonSpanSource : public SpanSource {
 public:
  explicit JsonSpanSource(LoadedJsonSpans& loaded) : loaded_(loaded) {}
  const PhaseAssignment& phases() const override { return loaded_.input.names->phases(); }
  unsigned threads(const CommonOptions&) const override { return 1; }
  Status read(const std::vector<SpanSink*>& sinks, Diagnostics& diagnostics) const override {
    SinkFeeder feeder(*sinks.front());
    NPKIT_TRY(
        ingest::read_json_spans(loaded_.input, loaded_.read, loaded_.tracks, feeder, diagnostics));
    feeder.finish(loaded_.tracks.tracks());
    return Ok{};
  }

 private:
  LoadedJsonSpans& loaded_;
};

const PhaseReportWording& span_wording() {
  static const PhaseReportWording wording{
      "GPU collective time",
      "top-level spans summed over buffers",
      "CPU proxy span time",
      "Phases (exclusive time; share of the domain's time; spread of per-rank totals)",
      "Per rank (GPU)",
      ""};
  return wording;
}

Status reject_html(const CommonOptions& o) {
  if (output_format(o) != OutputFormat::kHtml) return Ok{};
  return Error{"--format html is not available for JSON traces (" + o.path + ")"};
}

Result<int> run_span_report(const CommonOptions& o, LoadedJsonSpans& loaded, CliContext& context) {
  auto report = compute_phase_report(JsonSpanSource(loaded), o, loaded.diagnostics);
  if (!report) return report.error();
  NPKIT_TRY(check_selected_ranks(o, loaded));
  const PhaseAssignment& phases = loaded.input.names->phases();
  const std::string& table = loaded.input.names->table().label();
  std::string text;
  const OutputFormat format = output_format(o);
  switch (format) {
    case OutputFormat::kJson: {
      JsonWriter w(text);
      w.begin_object();
      w.field("schema", "npkit-analyze.report");
      w.field("schema_version", 1);
      w.field("path", o.path);
      w.field("event_table", table);
      write_phase_report_json(w, *report, phases);
      write_warnings_json(w, loaded.diagnostics);
      w.end_object();
      break;
    }
    case OutputFormat::kCsv:
      render_csv(phase_report_csv(*report), text);
      break;
    case OutputFormat::kTable:
    case OutputFormat::kMarkdown:
    case OutputFormat::kHtml:
      render_line(fmt::format("{}: {} rank(s), event table {}", o.path,
                              report->breakdown.ranks().size(), table),
                  format, text);
      render_phase_report(*report, phases, span_wording(), format, text);
      break;
  }
  NPKIT_TRY(write_output(o, text, context));
  print_warnings(loaded.diagnostics, o, context);
  return 0;
}

std::string gbps(double v) {
  return fmt::format("{:.2f}", v);
}

Result<int> run_span_bandwidth(const CommonOptions& o, LoadedJsonSpans& loaded,
                               const std::string& coll, const std::string& view, bool per_rank,
                               CliContext& context) {
  NPKIT_TRY(reject_html(o));
  const PhaseAssignment& phases = loaded.input.names->phases();
  const EventTable& table = loaded.input.names->table();
  ingest::JsonSinkDemux<SpanBandwidthSinks> demux(
      [&] { return SpanBandwidthSinks(phases, table.base_names(), coll); });
  NPKIT_TRY(
      ingest::read_json_spans(loaded.input, loaded.read, loaded.tracks, demux, loaded.diagnostics));
  NPKIT_TRY(check_selected_ranks(o, loaded));
  SpanBandwidthSinks merged = demux.finish(loaded.tracks.tracks());
  const auto nranks = static_cast<std::uint32_t>(loaded.tracks.seen_ranks().size());
  const SpanBandwidthView v{o.path, coll, view, per_rank, nranks};
  std::string text;
  write_span_bandwidth(v, merged.collectives.summarise(nranks), merged.spans.summarise(),
                       loaded.diagnostics, output_format(o), text);
  NPKIT_TRY(write_output(o, text, context));
  print_warnings(loaded.diagnostics, o, context);
  return 0;
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

void write_span_info_json(const CommonOptions& o, const LoadedJsonSpans& loaded,
                          const InventorySink& inv, std::string& out) {
  const RankInventory t = inv.totals();
  JsonWriter w(out);
  w.begin_object();
  w.field("schema", "npkit-analyze.info");
  w.field("schema_version", 1);
  w.field("path", o.path);
  w.field("variant", "Chrome trace JSON");
  w.key("files");
  w.begin_array();
  for (const auto& f : loaded.input.files) {
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
  w.field("name", loaded.input.names->table().label());
  w.field("reason", loaded.input.table_reason);
  w.field("names_added", loaded.input.names->names_added());
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
  write_warnings_json(w, loaded.diagnostics);
  w.end_object();
}

void write_span_info_text(const CommonOptions& o, const LoadedJsonSpans& loaded,
                          const InventorySink& inv, OutputFormat format, std::string& out) {
  const RankInventory t = inv.totals();
  std::vector<std::string> lines;
  lines.push_back(fmt::format("trace         {} ({} file(s))", o.path, loaded.input.files.size()));
  for (const auto& f : loaded.input.files) {
    lines.push_back(fmt::format("producer      {}: {} ({}; {} events)", f.path,
                                ingest::trace_producer_name(f.identity.producer), f.identity.reason,
                                f.events));
  }
  lines.push_back(fmt::format("event table   {} ({})", loaded.input.names->table().label(),
                              loaded.input.table_reason));
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

Result<int> run_span_info(const CommonOptions& o, LoadedJsonSpans& loaded, CliContext& context) {
  NPKIT_TRY(reject_html(o));
  auto merged = read_merged<InventorySink>(JsonSpanSource(loaded), o, loaded.diagnostics, [&] {
    return InventorySink(loaded.input.names->table());
  });
  if (!merged) return merged.error();
  NPKIT_TRY(check_selected_ranks(o, loaded));
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
  print_warnings(loaded.diagnostics, o, context);
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

Result<int> run_span_trace(const CommonOptions& o, LoadedJsonSpans& loaded, CliContext& context) {
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
  std::uint64_t events = 0;
  if (o.output.empty() || o.output == "-") {
    NPKIT_TRY(
        write_span_trace(loaded, o, origins.origins(), context.out, "standard output", events));
  } else {
    // Written beside the target and renamed, so a failed run never leaves a half file; devices
    // and pipes are written in place.
    const bool in_place = io::is_special_file(o.output);
    const std::string target = in_place ? o.output : o.output + ".tmp";
    std::ofstream file(target, std::ios::binary | std::ios::trunc);
    if (!file) return Error{"cannot write " + o.output + ": cannot create " + target};
    const Status written = write_span_trace(loaded, o, origins.origins(), file, o.output, events);
    file.close();
    if (!in_place && (!written || std::rename(target.c_str(), o.output.c_str()) != 0)) {
      std::remove(target.c_str());
      return written ? Error{"cannot write " + o.output + ": rename failed"} : written.error();
    }
    if (!written) return written.error();
    if (!o.quiet) context.err << fmt::format("wrote {} events to {}\n", events, o.output);
  }
  print_warnings(loaded.diagnostics, o, context);
  return 0;
}

// ---- Profiler traces: NCCL's example plugin and our traces of .npkt dumps ----

struct LoadedProfiler {
  std::vector<ingest::PluginRankTrace> traces;  // the selected ranks; `comms` point into it
  std::vector<ingest::PluginCommunicator> comms;
  Diagnostics diagnostics;
};

std::string profiler_time_source(const std::vector<ingest::PluginRankTrace>& traces) {
  const bool example = std::any_of(traces.begin(), traces.end(), [](const auto& t) {
    return t.producer == ingest::TraceProducer::kNcclExample;
  });
  return example ? "COLL events of NCCL's example profiler plugin: b (enqueue) to e (completion), "
                   "on each process's own clock (µs since its plugin init)"
                 : "GPU spans of the collectives (first to last KernelCh) on each host's clock, "
                   "from npkit-analyze's trace of .npkt dumps";
}

Result<std::unique_ptr<LoadedProfiler>> load_profiler(const CommonOptions& o,
                                                      const std::vector<std::string>& files) {
  const char* option = nullptr;
  if (o.event_table != "auto") option = "--event-table";
  if (!o.phase_map.empty()) option = "--phase-map";
  if (o.cpu_record_size != 0) option = "--cpu-record-size";
  if (option != nullptr) {
    return Error{std::string(option) + " applies to NPKit event traces and dumps; " + o.path +
                 " holds profiler-plugin traces"};
  }
  auto filter = RankFilter::parse(o.ranks);
  if (!filter) return filter.error();
  auto loaded = std::make_unique<LoadedProfiler>();
  auto traces = ingest::read_profiler_traces(files, loaded->diagnostics);
  if (!traces) return traces.error();
  std::set<std::int32_t> seen;
  for (auto& t : *traces) {
    seen.insert(t.rank);
    if (t.rank >= 0 && filter->contains(static_cast<std::uint32_t>(t.rank))) {
      loaded->traces.push_back(std::move(t));
    }
  }
  if (loaded->traces.empty()) {
    return Error{fmt::format("--ranks {}: no such rank in {} (it has ranks {}..{})", o.ranks,
                             o.path, seen.empty() ? -1 : *seen.begin(),
                             seen.empty() ? -1 : *seen.rbegin())};
  }
  loaded->comms = ingest::join_plugin_traces(loaded->traces, profiler_time_source(loaded->traces),
                                             loaded->diagnostics);
  return loaded;
}

std::string comm_hex(std::uint64_t hash) {
  return fmt::format("{:016x}", hash);
}

std::uint32_t present_ranks(const ingest::PluginCommunicator& c) {
  return static_cast<std::uint32_t>(
      std::count_if(c.ranks.begin(), c.ranks.end(), [](auto* t) { return t != nullptr; }));
}

TextTable profiler_row_table(const std::vector<ingest::PluginCollRow>& rows,
                             const std::string& coll) {
  TextTable t;
  t.columns = {"collective", "algo",     "proto",     "type",         "size (B)",    "count",
               "ranks",      "channels", "time (us)", "algbw (GB/s)", "busbw (GB/s)"};
  for (const auto& r : rows) {
    if (!coll_selects(coll, coll_key(parse_nccl_func(r.func)))) continue;
    t.add_row({r.func, r.algo, r.proto, r.datatype, std::to_string(r.bytes),
               std::to_string(r.instances), std::to_string(r.ranks), std::to_string(r.channels),
               us(r.time_ns), gbps(r.algbw_gbps), gbps(r.busbw_gbps)});
  }
  return t;
}

void write_profiler_rows_json(JsonWriter& w, const std::vector<ingest::PluginCollRow>& rows,
                              const std::string& coll) {
  w.key("collectives");
  w.begin_array();
  for (const auto& r : rows) {
    if (!coll_selects(coll, coll_key(parse_nccl_func(r.func)))) continue;
    w.begin_object();
    w.field("collective", r.func);
    w.field("algo", r.algo);
    w.field("proto", r.proto);
    w.field("type", r.datatype);
    w.field("size_bytes", r.bytes);
    w.field("instances", r.instances);
    w.field("ranks", r.ranks);
    w.field("channels", r.channels);
    w.field("time_ns", r.time_ns);
    w.field("algbw_gbps", r.algbw_gbps);
    w.field("busbw_gbps", r.busbw_gbps);
    w.end_object();
  }
  w.end_array();
}

std::string rows_title(const ingest::PluginCommunicator& c) {
  return fmt::format(
      "Collectives (time = mean over ranks of each rank's median start-to-end time on its own "
      "clock; nccl-tests conventions, n = {})",
      c.nranks);
}

std::string comm_line(const std::string& path, const ingest::PluginCommunicator& c) {
  return fmt::format("{}: comm {}, {} of {} rank(s)", path, comm_hex(c.comm_hash), present_ranks(c),
                     c.nranks);
}

Result<int> run_profiler_report(const CommonOptions& o, const std::vector<std::string>& files,
                                CliContext& context) {
  NPKIT_TRY(reject_html(o));
  auto loaded = load_profiler(o, files);
  if (!loaded) return loaded.error();
  const auto& comms = (*loaded)->comms;
  std::vector<CrossRankAnalysis> analyses;
  for (const auto& c : comms) analyses.push_back(analyze_cross_rank(c.input, Thresholds{}));
  std::string text;
  const OutputFormat format = output_format(o);
  if (format == OutputFormat::kJson) {
    JsonWriter w(text);
    w.begin_object();
    w.field("schema", "npkit-analyze.report");
    w.field("schema_version", 1);
    w.field("path", o.path);
    w.key("communicators");
    w.begin_array();
    for (std::size_t i = 0; i < comms.size(); ++i) {
      w.begin_object();
      w.field("comm_hash", comm_hex(comms[i].comm_hash));
      w.field("nranks", comms[i].nranks);
      write_profiler_rows_json(w, comms[i].rows, "all");
      write_cross_rank_json(analyses[i], w);
      w.end_object();
    }
    w.end_array();
    write_warnings_json(w, (*loaded)->diagnostics);
    w.end_object();
  } else if (format == OutputFormat::kCsv) {
    for (std::size_t i = 0; i < comms.size(); ++i) {
      render_csv(cross_rank_csv(analyses[i]), text);
    }
  } else {
    for (std::size_t i = 0; i < comms.size(); ++i) {
      if (i > 0 && format != OutputFormat::kMarkdown) text += "\n";
      render_line(comm_line(o.path, comms[i]), format, text);
      if (format != OutputFormat::kMarkdown) text += "\n";
      TextTable rows = profiler_row_table(comms[i].rows, "all");
      rows.title = rows_title(comms[i]);
      render_table(rows, format, text);
      append_cross_rank_text(analyses[i], format, text);
    }
  }
  NPKIT_TRY(write_output(o, text, context));
  print_warnings((*loaded)->diagnostics, o, context);
  return 0;
}

Result<int> run_profiler_bandwidth(const CommonOptions& o, const std::vector<std::string>& files,
                                   const std::string& coll, CliContext& context) {
  NPKIT_TRY(reject_html(o));
  auto loaded = load_profiler(o, files);
  if (!loaded) return loaded.error();
  const auto& comms = (*loaded)->comms;
  std::string text;
  const OutputFormat format = output_format(o);
  if (format == OutputFormat::kJson) {
    JsonWriter w(text);
    w.begin_object();
    w.field("schema", "npkit-analyze.bandwidth");
    w.field("schema_version", 1);
    w.field("path", o.path);
    w.field("coll", coll);
    w.key("communicators");
    w.begin_array();
    for (const auto& c : comms) {
      w.begin_object();
      w.field("comm_hash", comm_hex(c.comm_hash));
      w.field("nranks", c.nranks);
      write_profiler_rows_json(w, c.rows, coll);
      w.end_object();
    }
    w.end_array();
    write_warnings_json(w, (*loaded)->diagnostics);
    w.end_object();
  } else {
    for (std::size_t i = 0; i < comms.size(); ++i) {
      TextTable rows = profiler_row_table(comms[i].rows, coll);
      if (format == OutputFormat::kCsv) {
        render_csv(rows, text);
        continue;
      }
      if (i > 0 && format != OutputFormat::kMarkdown) text += "\n";
      render_line(comm_line(o.path, comms[i]), format, text);
      rows.title = rows_title(comms[i]);
      render_table(rows, format, text);
    }
  }
  NPKIT_TRY(write_output(o, text, context));
  print_warnings((*loaded)->diagnostics, o, context);
  return 0;
}

TextTable profiler_file_table(const LoadedProfiler& loaded) {
  TextTable t;
  t.columns = {"rank", "comm", "clock", "events", "collectives", "never ended", "file"};
  for (const auto& c : loaded.comms) {
    for (const auto* r : c.ranks) {
      if (r == nullptr) continue;
      std::uint64_t events = 0;
      for (const auto& [cat, n] : r->events_by_category) events += n;
      t.add_row({std::to_string(r->rank), comm_hex(r->comm_hash),
                 r->host.empty() ? fmt::format("process {}", r->pid) : r->host,
                 std::to_string(events), std::to_string(r->colls.size()),
                 std::to_string(r->never_ended), r->path});
    }
  }
  return t;
}

Result<int> run_profiler_info(const CommonOptions& o, const std::vector<std::string>& files,
                              CliContext& context) {
  NPKIT_TRY(reject_html(o));
  auto loaded = load_profiler(o, files);
  if (!loaded) return loaded.error();
  const LoadedProfiler& l = **loaded;
  std::string text;
  const OutputFormat format = output_format(o);
  if (format == OutputFormat::kJson) {
    JsonWriter w(text);
    w.begin_object();
    w.field("schema", "npkit-analyze.info");
    w.field("schema_version", 1);
    w.field("path", o.path);
    w.field("variant", "Chrome trace JSON of profiler-plugin events");
    w.key("traces");
    w.begin_array();
    for (const auto& r : l.traces) {
      w.begin_object();
      w.field("path", r.path);
      w.field("producer", ingest::trace_producer_name(r.producer));
      w.field("comm_hash", comm_hex(r.comm_hash));
      w.field("rank", r.rank);
      w.field("pid", r.pid);
      w.field("host", r.host);
      w.field("collectives", static_cast<std::uint64_t>(r.colls.size()));
      w.field("never_ended", r.never_ended);
      w.key("events_by_category");
      w.begin_object();
      for (const auto& [cat, n] : r.events_by_category) w.field(cat, n);
      w.end_object();
      w.end_object();
    }
    w.end_array();
    w.key("gaps");
    w.begin_array();
    for (const auto& c : l.comms) {
      for (const auto& g : c.input.gaps) {
        w.begin_object();
        w.field("scope", g.scope);
        w.field("kind", g.kind);
        w.field("detail", g.detail);
        w.end_object();
      }
    }
    w.end_array();
    write_warnings_json(w, l.diagnostics);
    w.end_object();
  } else if (format == OutputFormat::kCsv) {
    render_csv(profiler_file_table(l), text);
  } else {
    render_line(fmt::format("trace         {} ({} file(s), {} rank trace(s), {} communicator(s))",
                            o.path, files.size(), l.traces.size(), l.comms.size()),
                format, text);
    render_line(fmt::format("producer      {}", ingest::trace_producer_name(l.traces[0].producer)),
                format, text);
    render_line("clocks        " + profiler_time_source(l.traces), format, text);
    if (format != OutputFormat::kMarkdown) text += "\n";
    render_table(profiler_file_table(l), format, text);
    bool first = true;
    for (const auto& c : l.comms) {
      for (const auto& g : c.input.gaps) {
        if (first && format != OutputFormat::kMarkdown) text += "\n";
        if (first) render_line("gaps", format, text);
        first = false;
        render_line(fmt::format("  {}: {}: {}", g.scope, g.kind, g.detail), format, text);
      }
    }
  }
  NPKIT_TRY(write_output(o, text, context));
  print_warnings(l.diagnostics, o, context);
  return 0;
}

Result<int> run_profiler_trace(const CommonOptions& o, const std::vector<std::string>&,
                               CliContext&) {
  return Error{o.path +
               " holds profiler-plugin events already in the Chrome trace format: open it in "
               "Perfetto as it is (trace converts NPKit and .npkt dumps and NPKit event traces)"};
}

// ---- Dispatch by producer ----

enum class Shape { kSpans, kProfiler };

Result<Shape> shape_of(const std::vector<std::string>& files) {
  auto identity = ingest::identify_trace(files.front());
  if (!identity) return identity.error();
  const auto p = identity->producer;
  return p == ingest::TraceProducer::kNcclExample || p == ingest::TraceProducer::kOwnProfiler
             ? Shape::kProfiler
             : Shape::kSpans;
}

template <typename SpanRun, typename ProfilerRun>
Result<int> dispatch(const CommonOptions& o, SpanRun span_run, ProfilerRun profiler_run) {
  auto files = json_files(o.path);
  if (!files) return files.error();
  auto shape = shape_of(*files);
  if (!shape) return shape.error();
  if (*shape == Shape::kProfiler) return profiler_run(*files);
  auto loaded = load_json_spans(o, *files);
  if (!loaded) return loaded.error();
  return span_run(**loaded);
}

}  // namespace

bool is_json_input(const std::string& path) {
  if (!io::is_directory(path)) {
    return ends_with(path, kJsonExtension) && io::path_exists(path) && !io::is_special_file(path);
  }
  auto entries = io::list_directory(path);
  if (!entries) return false;
  bool json = false;
  for (const auto& e : *entries) {
    if (is_npkit_event_file(e.name)) return false;
    json = json || (e.regular && ends_with(e.name, kJsonExtension));
  }
  return json;
}

Result<int> run_json_info(const CommonOptions& o, CliContext& context) {
  return dispatch(
      o, [&](LoadedJsonSpans& loaded) { return run_span_info(o, loaded, context); },
      [&](const std::vector<std::string>& files) { return run_profiler_info(o, files, context); });
}

Result<int> run_json_report(const CommonOptions& o, CliContext& context) {
  return dispatch(
      o, [&](LoadedJsonSpans& loaded) { return run_span_report(o, loaded, context); },
      [&](const std::vector<std::string>& files) {
        return run_profiler_report(o, files, context);
      });
}

Result<int> run_json_bandwidth(const CommonOptions& o, const std::string& coll,
                               const std::string& view, bool per_rank, CliContext& context) {
  if (!valid_coll_option(coll)) {
    return Error{"--coll '" + coll + "': expected one of " + coll_option_list()};
  }
  return dispatch(
      o,
      [&](LoadedJsonSpans& loaded) {
        return run_span_bandwidth(o, loaded, coll, view, per_rank, context);
      },
      [&](const std::vector<std::string>& files) {
        return run_profiler_bandwidth(o, files, coll, context);
      });
}

Result<int> run_json_trace(const CommonOptions& o, CliContext& context) {
  return dispatch(
      o, [&](LoadedJsonSpans& loaded) { return run_span_trace(o, loaded, context); },
      [&](const std::vector<std::string>& files) { return run_profiler_trace(o, files, context); });
}

}  // namespace npkit::cli
