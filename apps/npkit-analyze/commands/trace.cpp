// `npkit-analyze trace PATH -o FILE`: a Chrome Trace Event JSON or a Perfetto protobuf trace, of
// any input, in one layout (run/trace_layout.hpp): the spans of legacy dumps and Chrome traces of
// spans, the profiler events and event records of .npkt files, the collectives of NCCL Inspector
// logs and of Chrome traces of profiler-plugin events; narrowed to a time or collective window, and
// refused where it would grow past what the viewers open. --merge lays a PyTorch profiler trace
// into a capture's JSON (commands/trace_merge).
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>
#include <optional>
#include <thread>

#include "analysis/select/collective_window.hpp"
#include "commands/command.hpp"
#include "commands/trace_merge.hpp"
#include "output/trace/capture_trace_writer.hpp"
#include "output/trace/instance_trace_writer.hpp"
#include "output/trace/json_trace_encoder.hpp"
#include "output/trace/perfetto_trace_encoder.hpp"
#include "output/trace/span_trace_writer.hpp"
#include "output/trace/trace_window.hpp"

namespace npkit::cli {
namespace {

struct TraceOptions : CommonOptions {
  std::string from;  // "120ms"; "" = the start
  std::string to;
  std::string during;  // a collective: "" = no collective window
  std::string seq;     // "A:B" or "A"; "" = every seq
  std::string max_size = "2G";
  std::string old_coll;  // --coll, the window's former name: refused with the new one
  std::string merge;     // another tool's Chrome JSON trace on the wall clock: "" = none
  std::optional<MergedTrace> merged;  // read from `merge`
};

// A number followed by one of `units` (name, factor); a bare number takes `bare`'s factor.
Result<double> scaled(const std::string& option, const std::string& text,
                      std::initializer_list<std::pair<std::string_view, double>> units, double bare,
                      std::string_view expected) {
  std::string_view number = text;
  double factor = bare;
  for (const auto& [unit, f] : units) {
    if (text.ends_with(unit) && text.size() > unit.size()) {
      number = std::string_view(text).substr(0, text.size() - unit.size());
      factor = f;
      break;
    }
  }
  double v = 0;
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
  if (ec != std::errc() || end != number.data() + number.size() || !std::isfinite(v)) {
    return Error{fmt::format("{} '{}': expected {}", option, text, expected)};
  }
  return v * factor;
}

Result<std::int64_t> time_after_origin(const std::string& option, const std::string& text) {
  NPKIT_ASSIGN(auto v,
               scaled(option, text, {{"ns", 1.0}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}}, 1e3,
                      "a time after the trace's first event, e.g. 1500us, 12.5ms or 2s (a bare "
                      "number is microseconds)"));
  return static_cast<std::int64_t>(std::llround(v));
}

Result<TraceLimits> limits_of(const TraceOptions& o) {
  TraceLimits limits;
  if (!o.from.empty()) {
    NPKIT_ASSIGN(limits.from_ns, time_after_origin("--from", o.from));
  }
  if (!o.to.empty()) {
    NPKIT_ASSIGN(limits.to_ns, time_after_origin("--to", o.to));
  }
  if (limits.from_ns && limits.to_ns && *limits.to_ns < *limits.from_ns) {
    return Error{"--to " + o.to + " lies before --from " + o.from};
  }
  NPKIT_ASSIGN(auto size, scaled("--max-size", o.max_size,
                                 {{"K", 1024.0}, {"M", 1024.0 * 1024}, {"G", 1024.0 * 1024 * 1024}},
                                 1.0, "a size such as 512M or 2G (0: no limit)"));
  if (size < 0) return Error{"--max-size " + o.max_size + ": expected a size of 0 or more"};
  limits.max_bytes = static_cast<std::uint64_t>(size);
  return limits;
}

// --seq "A:B" or "A" (no --seq: every seq).
Result<std::pair<std::uint64_t, std::uint64_t>> seq_range(const std::string& text) {
  if (text.empty()) return std::pair<std::uint64_t, std::uint64_t>{0, UINT64_MAX};
  const auto colon = text.find(':');
  const std::string first = text.substr(0, colon);
  const std::string last = colon == std::string::npos ? first : text.substr(colon + 1);
  std::uint64_t a = 0;
  std::uint64_t b = 0;
  const auto ra = std::from_chars(first.data(), first.data() + first.size(), a);
  const auto rb = std::from_chars(last.data(), last.data() + last.size(), b);
  if (first.empty() || last.empty() || ra.ec != std::errc() || rb.ec != std::errc() ||
      ra.ptr != first.data() + first.size() || rb.ptr != last.data() + last.size() || b < a) {
    return Error{"--seq '" + text + "': expected FIRST:LAST or one seq, e.g. 100:110"};
  }
  return std::pair<std::uint64_t, std::uint64_t>{a, b};
}

// Narrows `limits` to the collectives --during/--seq select in `run` (o.during is a key of
// parse_coll_option).
Status add_collective_window(const TraceOptions& o, const Run& run, TraceLimits& limits,
                             CliContext& context) {
  if (o.during.empty()) return Ok{};
  NPKIT_ASSIGN(auto seqs, seq_range(o.seq));
  auto window = collective_window(run, o.during, seqs.first, seqs.second);
  if (!window) {
    // The window's errors name the option as "--coll", its name before trace's became --during.
    std::string message = window.error().message;
    if (message.starts_with("--coll ")) message.replace(0, 6, "--during");
    return Error{message};
  }
  limits.from_host_ns = window->from_ns;
  limits.to_host_ns = window->to_ns;
  if (!o.quiet) {
    context.err << fmt::format("window: {} {} instance(s), {:.3f} us\n", window->instances,
                               o.during,
                               static_cast<double>(window->to_ns - window->from_ns) / 1e3);
  }
  return Ok{};
}

std::string human_bytes(std::uint64_t b) {
  return b >= (1ull << 30) ? fmt::format("{:.1f} GiB", static_cast<double>(b) / (1ull << 30))
                           : fmt::format("{:.0f} MiB", static_cast<double>(b) / (1ull << 20));
}

// Writes the trace through `produce` into the chosen format behind the window and size guard.
Status write_trace(
    const TraceOptions& o, const TraceLimits& limits, CliContext& context,
    const std::function<Status(WindowedTraceEncoder&, const std::string&)>& produce) {
  return write_trace_output(
      o, context, [&](std::ostream& out, const std::string& name) -> Result<std::uint64_t> {
        std::unique_ptr<TraceEncoder> format;
        if (o.format == "perfetto") {
          format = std::make_unique<PerfettoTraceEncoder>(out);
        } else {
          auto json = std::make_unique<JsonTraceEncoder>(out);
          if (o.merged) merge_into(*json, *o.merged);
          format = std::move(json);
        }
        WindowedTraceEncoder encoder(*format, limits);
        NPKIT_TRY(produce(encoder, name));
        if (encoder.exceeded()) {
          return Error{fmt::format(
              "the trace grew past --max-size {} ({}) after {} slices and was not written: more "
              "than the viewers open (chrome://tracing about 256 MB, the Perfetto UI about 2 "
              "GB). Narrow it with --ranks (e.g. --ranks 0-1), a time window (--from 10ms --to "
              "12ms, after the trace's first event) or a collective window (--during allreduce "
              "--seq "
              "100:110){}; or --max-size 0 to write it anyway",
              o.max_size, human_bytes(limits.max_bytes), encoder.kept(),
              o.format == "json" ? ", or write --format perfetto (about a third of the size)"
                                 : "")};
        }
        if (limits.windowed() && !o.quiet) {
          context.err << fmt::format("window: {} slices kept, {} outside it\n", encoder.kept(),
                                     encoder.dropped());
        }
        return encoder.events();
      });
}

// Captures whose reader lays their events on typed tracks (.npkt files): one process per
// (communicator, rank), in communicator then rank order, files outside any communicator (rank -1)
// last; event-record streams are threads of their file's process
// (output/trace/capture_trace_writer.hpp).
Result<int> trace_captures(const TraceOptions& o, RunInput& input, TraceLimits limits,
                           CliContext& context) {
  Run run;
  NPKIT_TRY(read_run<IgnoreSpans>(input, run, [] { return IgnoreSpans{}; }));
  NPKIT_TRY(add_collective_window(o, run, limits, context));
  const auto tracks = input.capture_tracks();
  NPKIT_TRY(
      write_trace(o, limits, context, [&](WindowedTraceEncoder& encoder, const std::string& name) {
        auto written = write_capture_trace(*tracks, &run, o.path, encoder, name);
        return written ? Status{Ok{}} : Status{written.error()};
      }));
  print_warnings(input.diagnostics(), o, context);
  return 0;
}

// Inputs that time whole operations only (NCCL Inspector logs, Chrome traces of profiler-plugin
// events): their collective instances, one process per (communicator, rank)
// (output/trace/instance_trace_writer.hpp).
Result<int> trace_instances(const TraceOptions& o, RunInput& input, TraceLimits limits,
                            CliContext& context) {
  Run run;
  NPKIT_TRY(read_run<IgnoreSpans>(input, run, [] { return IgnoreSpans{}; }));
  if (!o.during.empty()) NPKIT_TRY(add_collective_window(o, run, limits, context));
  NPKIT_TRY(
      write_trace(o, limits, context, [&](WindowedTraceEncoder& encoder, const std::string& name) {
        return write_instance_trace(run, encoder, name);
      }));
  print_warnings(input.diagnostics(), o, context);
  return 0;
}

// Threads reading the input in pass 1 and encoding a legacy dump's spans in pass 2: --threads,
// else one per core, at most 16 (small dumps gain from threads too: a trace has little else).
unsigned trace_threads(const TraceOptions& o) {
  if (o.threads != 0) return std::min(o.threads, 64u);
  return std::clamp(std::thread::hardware_concurrency(), 1u, 16u);
}

// The spans of a legacy dump or a Chrome trace of spans: pass 1, on all cores, finds the time
// origins and the run; pass 2 streams the spans in track order into the trace: a legacy dump's
// are encoded on all cores, a chunk of tracks at a time; a Chrome trace is read again on one
// reader (pass 1's warnings repeat pass 2's and are dropped).
// `first`: the input opened on all cores.
Result<int> trace_spans(const TraceOptions& o, RunInput& first, const DetectedInput& detected,
                        TraceLimits limits, CliContext& context) {
  Run run;
  NPKIT_ASSIGN(auto origins,
               read_run<TraceOriginSink>(first, run, [] { return TraceOriginSink(); }));
  NPKIT_TRY(add_collective_window(o, run, limits, context));
  const TraceMetadata meta{o.path, first.event_table(), first.span_clock(),
                           first.cpu_record_size()};
  if (first.reads_span_chunks()) {
    NPKIT_TRY(write_trace(
        o, limits, context, [&](WindowedTraceEncoder& encoder, const std::string& name) -> Status {
          begin_span_trace(encoder, origins.origins(), meta);
          SpanChunks chunks;
          chunks.threads = trace_threads(o);
          chunks.window = 2 * chunks.threads;  // memory: threads × the largest chunk
          Diagnostics repeated;                // pass 1 found the same warnings
          NPKIT_TRY(write_span_trace_in_chunks(
              first, chunks, origins.origins(), meta, encoder, [&] { return encoder.exceeded(); },
              repeated));
          write_span_busbw_counters(run, origins.origins(), encoder);
          return encoder.finish(name);
        }));
    print_warnings(first.diagnostics(), o, context);
    return 0;
  }
  CommonOptions one = o;
  one.threads = 1;
  NPKIT_ASSIGN(auto input, open_input(one, context, detected));
  RunInput& in = *input;
  NPKIT_TRY(write_trace(
      o, limits, context, [&](WindowedTraceEncoder& encoder, const std::string& name) -> Status {
        begin_span_trace(encoder, origins.origins(), meta);
        SpanTraceWriter writer(encoder, in.span_names(), in.phases(), origins.origins(), meta);
        auto read = in.read({&writer});
        if (!read) return Status{read.error()};
        write_span_busbw_counters(run, origins.origins(), encoder);
        return encoder.finish(name);
      }));
  print_warnings(in.diagnostics(), o, context);
  return 0;
}

Result<int> run_trace(TraceOptions o, CliContext& context) {
  if (o.format == "auto") {
    o.format = o.output.ends_with(".pftrace") || o.output.ends_with(".perfetto-trace") ? "perfetto"
                                                                                       : "json";
  }
  if (o.format != "json" && o.format != "perfetto") {
    return Error{"--format " + o.format +
                 ": trace writes Chrome Trace Event JSON (--format json) or Perfetto's protobuf "
                 "trace (--format perfetto); tables in table, csv or md come from info, report "
                 "and bandwidth"};
  }
  if (!o.old_coll.empty()) {
    return Error{"--coll " + o.old_coll + ": trace's collective window is --during (--during " +
                 o.old_coll +
                 " [--seq FIRST:LAST]); --coll is the filter of bandwidth and instances"};
  }
  if (!o.seq.empty() && o.during.empty()) {
    return Error{"--seq " + o.seq + " needs --during: the seq numbers of which collective?"};
  }
  if (!o.during.empty()) {
    NPKIT_ASSIGN(o.during, parse_coll_option("--during", o.during, /*allow_all=*/false));
  }
  if (!o.merge.empty()) {
    if (o.format != "json") {
      return Error{"--merge " + o.merge +
                   ": merging writes Chrome Trace Event JSON (--format json, -o FILE.json), the "
                   "format PyTorch's profiler writes"};
    }
    NPKIT_ASSIGN(o.merged, read_merged_trace(o.merge));
  }
  NPKIT_ASSIGN(auto limits, limits_of(o));
  NPKIT_ASSIGN(auto detected, detect_input(o.path));
  // On all cores, small dumps too: reading spans is most of a small trace's fixed cost.
  CommonOptions all_cores = o;
  all_cores.threads = trace_threads(o);
  NPKIT_ASSIGN(auto input, open_input(all_cores, context, detected));
  switch (input->trace_source()) {
    case TraceSource::kCaptureTracks:
      return trace_captures(o, *input, limits, context);
    case TraceSource::kInstances:
      return trace_instances(o, *input, limits, context);
    case TraceSource::kSpans:
      return trace_spans(o, *input, detected, limits, context);
    case TraceSource::kNone:
      break;
  }
  return Error{o.path + " " + input->untraced_reason()};
}

}  // namespace

void register_trace(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<TraceOptions>();
  CLI::App* cmd = app.add_subcommand(
      "trace",
      "A trace for Perfetto or chrome://tracing, as Chrome Trace Event JSON or Perfetto's "
      "protobuf: ranks as processes, channels, buffers and streams as threads, spans as slices");
  add_common_options(*cmd, *options, /*with_format=*/false);
  options->format = "auto";
  cmd->add_option("--format", options->format,
                  "Output format: json (Chrome Trace Event JSON), perfetto (Perfetto's protobuf "
                  "trace, about a third of the size), auto (perfetto when -o ends in .pftrace or "
                  ".perfetto-trace, else json)")
      ->capture_default_str();
  cmd->add_option("--from", options->from,
                  "Keep spans that reach past this time after the trace's first event (e.g. "
                  "12ms, 1500us, 2s; a bare number is microseconds)");
  cmd->add_option("--to", options->to,
                  "Keep spans that start by this time after the trace's first event");
  cmd->add_option("--during", options->during,
                  "Keep the time a collective's instances take (e.g. allreduce or AllReduce), "
                  "with --seq");
  cmd->add_option("--seq", options->seq,
                  "With --during: the instances' seq, FIRST:LAST or one (default: all)");
  cmd->add_option("--coll", options->old_coll)->group("");  // the former --during: refused
  cmd->add_option("--merge", options->merge,
                  "Lay another tool's Chrome JSON trace on the host's wall clock (PyTorch's "
                  "profiler: export_chrome_trace, with baseTimeNanoseconds) into this JSON trace, "
                  "on one timeline (.npkt captures only)");
  cmd->add_option("--max-size", options->max_size,
                  "Refuse a trace larger than this (the viewers open about 2 GB): 512M, 2G; 0 for "
                  "no limit")
      ->capture_default_str();
  cmd->callback([options, &context] { context.outcome = run_trace(*options, context); });
}

}  // namespace npkit::cli
