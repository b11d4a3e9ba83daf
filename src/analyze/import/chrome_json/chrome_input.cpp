#include "import/chrome_json/chrome_input.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "import/chrome_json/plugin_trace_decoder.hpp"
#include "import/chrome_json/trace_producer.hpp"
#include "import/spanless_options.hpp"
#include "import/spans/collective_spans.hpp"
#include "util/file_io.hpp"

namespace npkit {
namespace {

constexpr std::string_view kJsonExtension = ".json";

// Feeds one sink from the interleaved stream: each track begun when first met, all ended after
// the read, in track order.
class SinkFeeder : public JsonSpanTarget {
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
  void finish(const std::vector<JsonTrack>& tracks) {
    for (const auto& t : tracks) {
      begin(t.track, t.stats.domain);
      sink_.end_track(TrackFile{t.track, t.path, 0}, t.stats);
    }
  }

 private:
  void begin(const TrackRef& track, TimeDomain domain) {
    if (has_last_ && last_ == track) return;
    if (begun_.insert(track_order(track)).second) {
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

std::string profiler_time_source(const std::vector<PluginRankTrace>& traces) {
  const bool example = std::any_of(traces.begin(), traces.end(), [](const auto& t) {
    return t.producer == trace_producer_name(TraceProducer::kNcclExample);
  });
  return example ? "COLL events of NCCL's example profiler plugin: b (enqueue) to e (completion), "
                   "on each process's own clock (µs since its plugin init)"
                 : "GPU spans of the collectives (first to last KernelCh) on each host's clock, "
                   "from npkit-analyze's trace of .npkt dumps";
}

}  // namespace

Result<std::vector<std::string>> chrome_trace_files(const std::string& path) {
  if (!io::is_directory(path)) return std::vector<std::string>{path};
  NPKIT_ASSIGN(auto entries, io::list_directory(path));
  std::vector<std::string> files;
  for (const auto& e : entries) {
    if (e.regular && io::has_extension(e.name, kJsonExtension)) {
      files.push_back(io::join_path(path, e.name));
    }
  }
  if (files.empty()) return Error{path + ": no *.json file in the directory"};
  return files;
}

Result<bool> is_profiler_trace(const std::vector<std::string>& files) {
  NPKIT_ASSIGN(auto identity, identify_trace(files.front()));
  const auto p = identity.producer;
  return p == TraceProducer::kNcclExample || p == TraceProducer::kOwnProfiler;
}

Result<std::unique_ptr<ChromeSpanInput>> ChromeSpanInput::open(
    const ImportOptions& o, const std::vector<std::string>& files, const PhaseMap& user) {
  if (o.cpu_record_size != 0) {
    return Error{"--cpu-record-size applies to legacy NPKit dump directories; " + o.path +
                 " is a JSON trace"};
  }
  auto input = std::make_unique<ChromeSpanInput>();
  input->path_ = o.path;
  input->ranks_ = o.ranks;
  NPKIT_ASSIGN(input->read_.ranks, RankFilter::parse(o.ranks));
  input->read_.progress = o.progress;
  NPKIT_ASSIGN(input->input_,
               open_json_span_input(files, o.event_table, PhaseMap::builtin().with_user_rules(user),
                                    input->diagnostics_));
  return input;
}

std::vector<InputFact> ChromeSpanInput::input_facts() const {
  std::vector<InputFact> out;
  out.push_back({"format", "Chrome trace JSON of NPKit spans"});
  for (const auto& f : input_.files) {
    out.push_back({"file", fmt::format("{}: {} ({}; {} events)", f.path,
                                       trace_producer_name(f.identity.producer), f.identity.reason,
                                       f.events)});
  }
  out.push_back({"event table", input_.names->table().label() + " (" + input_.table_reason + ")"});
  out.push_back({"clock", "times read from the trace (microseconds, to the nearest ns)"});
  out.push_back({"metadata", "none: the trace records no host, GPU or NCCL version"});
  return out;
}

Result<Run> ChromeSpanInput::read_input(const std::vector<SpanSink*>& sinks) {
  CollectiveSpans collectives(phases(), span_names());
  WithCollectiveSpans tee(*sinks.front(), collectives);
  SinkFeeder feeder(tee);
  NPKIT_TRY(read_json_spans(input_, read_, tracks_, feeder, diagnostics_));
  feeder.finish(tracks_.tracks());
  const auto& seen = tracks_.seen_ranks();
  if (!seen.empty() && tracks_.ranks().empty()) {
    return Error{fmt::format("--ranks {}: no such rank in {} (it has ranks {}..{})", ranks_, path_,
                             *seen.begin(), *seen.rbegin())};
  }
  std::vector<std::int32_t> ranks;
  for (auto r : tracks_.ranks()) ranks.push_back(static_cast<std::int32_t>(r));
  const std::int32_t nranks = seen.empty() ? 0 : static_cast<std::int32_t>(*seen.rbegin()) + 1;
  Run run;
  run.path = path_;
  run.kind = InputKind::kChromeTrace;
  run.config.formats.insert("chrome-trace");
  run.config.files = input_.files.size();
  run.comms.push_back(collectives.join(
      path_,
      "top-level collective spans (first ENTRY to last EXIT over the rank's buffers, as the "
      "trace places them)",
      nranks, ranks));
  return run;
}

Result<std::unique_ptr<ChromeProfilerInput>> ChromeProfilerInput::open(
    const ImportOptions& o, const std::vector<std::string>& files, const PhaseMap& user) {
  auto input = std::make_unique<ChromeProfilerInput>();
  for (const auto& f : files) {
    NPKIT_ASSIGN(auto identity, identify_trace(f));
    if (identity.producer != TraceProducer::kOwnProfiler) continue;
    NPKIT_ASSIGN(auto names, read_trace_event_names(identity.header, f));
    merge_trace_event_names(input->event_names_, names);
  }
  const char* option = nullptr;
  if (o.event_table != "auto") option = "--event-table";
  if (!o.phase_map.empty() && input->event_names_.bases.empty()) option = "--phase-map";
  if (o.cpu_record_size != 0) option = "--cpu-record-size";
  if (option != nullptr) {
    return Error{std::string(option) + " applies to NPKit event traces and dumps" +
                 (option == std::string_view("--phase-map") ? " and to event records" : "") + "; " +
                 o.path + " holds profiler-plugin traces" +
                 (option == std::string_view("--phase-map") ? " without event records" : "")};
  }
  NPKIT_ASSIGN(auto filter, RankFilter::parse(o.ranks));
  input->path_ = o.path;
  input->files_ = files;
  input->ranks_ = o.ranks;
  NPKIT_ASSIGN(auto traces, read_profiler_traces(files, input->diagnostics_));
  std::set<std::int32_t> seen;
  for (auto& t : traces) {
    seen.insert(t.rank);
    if (t.rank >= 0 && filter.contains(static_cast<std::uint32_t>(t.rank))) {
      input->traces_.push_back(std::move(t));
    }
  }
  if (input->traces_.empty()) return no_such_ranks(o, seen);
  input->time_source_ = profiler_time_source(input->traces_);
  input->comms_ = join_plugin_traces(input->traces_, input->time_source_, input->diagnostics_);
  input->phases_ = input->event_names_.bases.empty()
                       ? assign_phases(PhaseMap{}, EventTable{})
                       : assign_phases_with_hints(user, input->event_names_.bases,
                                                  input->event_names_.hints, PhaseMap::builtin());
  return input;
}

std::vector<InputFact> ChromeProfilerInput::input_facts() const {
  std::vector<InputFact> out;
  out.push_back({"format", "Chrome trace JSON of profiler-plugin events"});
  std::set<std::string> files;
  std::set<std::string> hosts;
  for (const auto& t : traces_) {
    files.insert(t.path);
    if (!t.host.empty()) hosts.insert(t.host);
  }
  out.push_back({"producer", traces_.front().producer});
  out.push_back({"traces", fmt::format("{} rank trace(s) in {} file(s), {} communicator(s)",
                                       traces_.size(), files.size(), comms_.size())});
  out.push_back({"clock", time_source_});
  out.push_back({"hosts", hosts.empty() ? "not recorded in the trace"
                                        : fmt::format("{}", fmt::join(hosts, ", "))});
  if (has_spans()) {
    out.push_back(
        {"event records", fmt::format("spans of {} event name(s) (otherData.event_names), "
                                      "read back on their streams",
                                      event_names_.bases.size())});
  }
  return out;
}

Result<Run> ChromeProfilerInput::read_input(const std::vector<SpanSink*>& sinks) {
  Run run;
  run.path = path_;
  run.kind = InputKind::kChromeTrace;
  run.config.formats.insert("chrome-trace");
  std::set<std::string> files;
  for (const auto& t : traces_) {
    files.insert(t.path);
    if (!t.host.empty()) run.config.hosts.insert(t.host);
  }
  run.config.files = files.size();
  for (const auto& c : comms_) run.comms.push_back(c.run);
  if (!has_spans()) return run;
  NPKIT_TRY(read_event_spans(*sinks.front(), run));
  return run;
}

Status ChromeProfilerInput::read_event_spans(SpanSink& sink, Run& run) {
  NPKIT_ASSIGN(auto filter, RankFilter::parse(ranks_));
  CollectiveSpans collectives(phases_, event_names_.bases, "stream");
  WithCollectiveSpans tee(sink, collectives);
  for (const auto& f : files_) {
    NPKIT_ASSIGN(auto identity, identify_trace(f));
    if (identity.producer != TraceProducer::kOwnProfiler) continue;
    OwnEventSpanDecoder decoder(f, event_names_, phases_, filter, tee, diagnostics_);
    NPKIT_TRY(read_trace_file(f, decoder, TraceReadOptions{}, diagnostics_));
    decoder.finish();
  }
  std::map<std::int32_t, std::string> hosts;
  std::vector<std::int32_t> ranks;
  for (const auto& t : traces_) {
    hosts.emplace(t.rank, t.host);
    ranks.push_back(t.rank);
  }
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  RunCommunicator comm = collectives.join(
      path_,
      "collective-level event spans (first ENTRY to last EXIT over the rank's streams, as the "
      "trace places them)",
      ranks.empty() ? 0 : ranks.back() + 1, ranks, hosts);
  if (!comm.instances.empty() || !comm.gaps.empty()) run.comms.push_back(std::move(comm));
  return Ok{};
}

}  // namespace npkit
