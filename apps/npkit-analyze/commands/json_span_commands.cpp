#include "commands/json_span_commands.hpp"

#include <fmt/format.h>

#include <memory>
#include <set>
#include <tuple>

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

Result<int> run_json_span_trace(const CommonOptions& o, const std::vector<std::string>& files,
                                CliContext& context) {
  return on_loaded(o, files, [&](LoadedJsonSpans& loaded) { return trace(o, loaded, context); });
}

}  // namespace npkit::cli
