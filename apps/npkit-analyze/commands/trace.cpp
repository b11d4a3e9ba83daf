// `npkit-analyze trace PATH -o FILE`: a Chrome Trace Event JSON for Perfetto / chrome://tracing.
#include <memory>

#include "commands/command.hpp"
#include "commands/json_input.hpp"
#include "commands/npkt_input.hpp"
#include "output/chrome_trace_writer.hpp"

namespace npkit::cli {
namespace {

Status write_trace(LoadedDump& loaded, const CommonOptions& o, const TraceOrigins& origins,
                   std::ostream& out, const std::string& out_name, std::uint64_t& events) {
  TraceMetadata meta;
  meta.source = o.path;
  meta.event_table = loaded.dump.table.label();
  meta.cpu_record_size = loaded.dump.cpu_record_size;
  meta.gpu_clock =
      "GPU ticks converted through the TIME_SYNC_CPU/GPU pair of each kernel launch (integer ns)";
  ChromeTraceWriter writer(out, loaded.dump.table, loaded.phases, origins, meta);
  NPKIT_TRY(read_legacy_spans(loaded.dump, loaded.phases, loaded.read, writer, loaded.diagnostics));
  NPKIT_TRY(writer.finish(out_name));
  events = writer.events_written();
  return Ok{};
}

Result<int> run_trace(const CommonOptions& o, CliContext& context) {
  if (o.format != "json") {
    return Error{"--format " + o.format +
                 ": trace writes a Chrome/Perfetto trace, which is JSON (--format json); tables "
                 "in table, csv or md come from info, report and bandwidth"};
  }
  auto detected = detect_input(o.path);
  if (!detected) return detected.error();
  if (detected->kind == DetectedKind::kNpkt) return run_npkt_trace(o, context);
  if (detected->kind == DetectedKind::kChromeTrace) return run_json_trace(o, context);
  if (detected->kind == DetectedKind::kSummary) {
    return Error{o.path + " is an npkit summary: it holds no events to trace"};
  }
  auto loaded = load_dump(o, context);
  if (!loaded) return loaded.error();
  // Pass 1, on all cores: the time origins. Its warnings repeat pass 2's, so they are dropped.
  const Diagnostics opened = loaded->diagnostics;
  auto origins = read_merged<TraceOriginSink>(*loaded, o, [] { return TraceOriginSink(); });
  if (!origins) return origins.error();
  loaded->diagnostics = opened;

  NPKIT_TRY(write_trace_output(
      o, context, [&](std::ostream& out, const std::string& name) -> Result<std::uint64_t> {
        std::uint64_t events = 0;
        NPKIT_TRY(write_trace(*loaded, o, origins->origins(), out, name, events));
        return events;
      }));
  print_warnings(loaded->diagnostics, o, context);
  return 0;
}

}  // namespace

void register_trace(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<CommonOptions>();
  CLI::App* cmd = app.add_subcommand("trace",
                                     "Chrome/Perfetto trace JSON: ranks as processes, buffers and "
                                     "channels as threads, spans as complete events");
  add_common_options(*cmd, *options, /*with_format=*/false);
  options->format = "json";
  cmd->add_option("--format", options->format,
                  "Output format: json (the Chrome Trace Event format; the only one)")
      ->capture_default_str();
  cmd->callback([options, &context] { context.outcome = run_trace(*options, context); });
}

}  // namespace npkit::cli
