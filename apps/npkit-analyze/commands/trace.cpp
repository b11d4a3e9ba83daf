// `npkit-analyze trace PATH -o FILE`: a Chrome Trace Event JSON or a Perfetto protobuf trace, of
// any input, in one layout (run/trace_layout.hpp): the spans of legacy dumps and Chrome traces of
// spans, the profiler events and event records of .npkt files.
#include <algorithm>
#include <memory>

#include "commands/command.hpp"
#include "import/npkt/npkt_input.hpp"
#include "output/trace/capture_trace_writer.hpp"
#include "output/trace/json_trace_encoder.hpp"
#include "output/trace/perfetto_trace_encoder.hpp"
#include "output/trace/span_trace_writer.hpp"

namespace npkit::cli {
namespace {

std::unique_ptr<TraceEncoder> make_encoder(const CommonOptions& o, std::ostream& out) {
  if (o.format == "perfetto") return std::make_unique<PerfettoTraceEncoder>(out);
  return std::make_unique<JsonTraceEncoder>(out);
}

// .npkt files: one process per (communicator, rank), in communicator then rank order, files
// outside any communicator (rank -1) last; event-record streams are threads of their file's
// process (output/trace/capture_trace_writer.hpp).
Result<int> trace_captures(const CommonOptions& o, CliContext& context) {
  auto input = open_input(o, context);
  if (!input) return input.error();
  const auto& npkt = dynamic_cast<NpktInput&>(**input);
  const LoadedCaptures& loaded = npkt.captures();
  std::vector<const RankCapture*> captures;
  for (const auto& comm : loaded.comms) {
    captures.insert(captures.end(), comm.ranks.begin(), comm.ranks.end());
  }
  for (const auto& f : loaded.files) {
    if (std::find(captures.begin(), captures.end(), f.get()) == captures.end()) {
      captures.push_back(f.get());
    }
  }
  NPKIT_TRY(write_trace_output(
      o, context, [&](std::ostream& out, const std::string& name) -> Result<std::uint64_t> {
        auto encoder = make_encoder(o, out);
        auto written = write_capture_trace(captures, &loaded.events, o.path, *encoder, name);
        if (!written) return written.error();
        return written->events;
      }));
  print_warnings((*input)->diagnostics(), o, context);
  return 0;
}

// The spans of a legacy dump or a Chrome trace of spans: pass 1, on all cores, finds the time
// origins (its warnings repeat pass 2's and are dropped); pass 2, on one reader, streams the
// spans in track order into the writer.
Result<int> trace_spans(const CommonOptions& o, CliContext& context) {
  auto first = open_input(o, context);
  if (!first) return first.error();
  if (!(*first)->has_spans()) {
    return Error{o.path +
                 " holds profiler-plugin events already in the Chrome trace format: open it in "
                 "Perfetto as it is (trace converts NPKit and .npkt dumps and NPKit event traces)"};
  }
  Run unused;
  auto origins = read_run<TraceOriginSink>(**first, unused, [] { return TraceOriginSink(); });
  if (!origins) return origins.error();
  const TraceMetadata meta{o.path, (*first)->event_table(), (*first)->span_clock(),
                           (*first)->cpu_record_size()};
  CommonOptions one = o;
  one.threads = 1;
  auto input = open_input(one, context);
  if (!input) return input.error();
  RunInput& in = **input;
  NPKIT_TRY(write_trace_output(
      o, context, [&](std::ostream& out, const std::string& name) -> Result<std::uint64_t> {
        auto encoder = make_encoder(o, out);
        SpanTraceWriter writer(*encoder, in.span_names(), in.phases(), origins->origins(), meta);
        auto run = in.read({&writer});
        if (!run) return run.error();
        NPKIT_TRY(encoder->finish(name));
        return encoder->events();
      }));
  print_warnings(in.diagnostics(), o, context);
  return 0;
}

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Result<int> run_trace(CommonOptions o, CliContext& context) {
  if (o.format == "auto") {
    o.format = ends_with(o.output, ".pftrace") || ends_with(o.output, ".perfetto-trace")
                   ? "perfetto"
                   : "json";
  }
  if (o.format != "json" && o.format != "perfetto") {
    return Error{"--format " + o.format +
                 ": trace writes Chrome Trace Event JSON (--format json) or Perfetto's protobuf "
                 "trace (--format perfetto); tables in table, csv or md come from info, report "
                 "and bandwidth"};
  }
  auto detected = detect_input(o.path);
  if (!detected) return detected.error();
  if (detected->kind == DetectedKind::kNpkt) return trace_captures(o, context);
  if (detected->kind == DetectedKind::kSummary) {
    return Error{o.path + " is an npkit summary: it holds no events to trace"};
  }
  return trace_spans(o, context);
}

}  // namespace

void register_trace(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<CommonOptions>();
  CLI::App* cmd = app.add_subcommand(
      "trace",
      "Trace for Perfetto / chrome://tracing: ranks as processes, channels, buffers and streams "
      "as threads, spans as slices");
  add_common_options(*cmd, *options, /*with_format=*/false);
  options->format = "auto";
  cmd->add_option("--format", options->format,
                  "Output format: json (Chrome Trace Event JSON), perfetto (Perfetto's protobuf "
                  "trace, about a third of the size), auto (perfetto when -o ends in .pftrace or "
                  ".perfetto-trace, else json)")
      ->capture_default_str();
  cmd->callback([options, &context] { context.outcome = run_trace(*options, context); });
}

}  // namespace npkit::cli
