// `npkit-analyze info PATH` for .npkt dumps: what each file holds.
#include <fmt/format.h>

#include "commands/npkt_input.hpp"
#include "model/profiler_rank_summary.hpp"
#include "render/text_table.hpp"

namespace npkit::cli {
namespace {

const char* end_reason_name(std::uint32_t reason) {
  switch (reason) {
    case format::kEndFinalize:
      return "finalize";
    case format::kEndProcessExit:
      return "process exit";
    default:
      return "unknown";
  }
}

// Why events of a type may legitimately never stop (reference 3.4, 3.5), or "".
const char* never_stopped_note(std::uint32_t type) {
  if (type == format::kTypeProxyOp) return "normal where no NET progress stops them";
  if (type == format::kTypeProxyStep) return "normal: NCCL restarts recv steps";
  return "";
}

std::string or_dash(const std::string& s) {
  return s.empty() ? "-" : s;
}

std::uint64_t total_events(const ProfilerEventCounts& c) {
  std::uint64_t n = 0;
  for (auto v : c.started) n += v;
  return n;
}

std::uint64_t total_never_stopped(const ProfilerEventCounts& c) {
  std::uint64_t n = 0;
  for (auto v : c.never_stopped) n += v;
  return n;
}

std::string events_line(const RankCapture& f) {
  std::string s;
  const auto& c = f.events.counts;
  for (std::uint32_t t = 0; t < kEventTypeSlots; ++t) {
    if (c.started[t] == 0) continue;
    s += fmt::format("{}{} {}", s.empty() ? "" : ", ", profiler_type_name(f.dump, t), c.started[t]);
  }
  return s.empty() ? "none" : s;
}

std::string never_stopped_line(const RankCapture& f) {
  std::string s;
  const auto& c = f.events.counts;
  for (std::uint32_t t = 0; t < kEventTypeSlots; ++t) {
    if (c.never_stopped[t] == 0) continue;
    const std::string note = never_stopped_note(t);
    s += fmt::format("{}{} {}{}", s.empty() ? "" : ", ", profiler_type_name(f.dump, t),
                     c.never_stopped[t], note.empty() ? "" : " (" + note + ")");
  }
  return s.empty() ? "none" : s;
}

// "4988 events, 643 stale (643 GPU start before its API call): Broadcast 643 of 644 events, 62
// operation(s) without GPU time".
std::string kernel_channels_line(const RankCapture& f) {
  const KernelChannelCheck& k = f.kernel_channels;
  if (k.kernel_channels == 0) return "none";
  std::string s = fmt::format("{} events", k.kernel_channels);
  if (k.open > 0) s += fmt::format(", {} without a start or stop timestamp", k.open);
  s += fmt::format(", {} stale", k.stale());
  if (k.stale() == 0) return s;
  std::string reasons;
  for (const auto& [n, v] : {std::pair{k.before_api, KernelChVerdict::kBeforeApi},
                             std::pair{k.after_noticed, KernelChVerdict::kAfterNoticed},
                             std::pair{k.stop_before_start, KernelChVerdict::kStopBeforeStart},
                             std::pair{k.out_of_order, KernelChVerdict::kOutOfOrder}}) {
    if (n > 0) reasons += fmt::format("{}{} {}", reasons.empty() ? "" : ", ", n, stale_reason(v));
  }
  s += " (" + reasons + ")";
  std::string funcs;
  for (const auto& fs : summarize_by_func(f)) {
    if (fs.stale_channels == 0) continue;
    funcs += fmt::format("{}{} {} of {} events, {} operation(s) without GPU time",
                         funcs.empty() ? "" : "; ", fs.func, fs.stale_channels, fs.kernel_channels,
                         fs.untimed_stale);
  }
  if (!funcs.empty()) s += ": " + funcs;
  return s;
}

std::string uncertainty_us(const HostGpuClock& clock) {
  return clock.uncertainty_ns ? fmt::format("{:.3f}", *clock.uncertainty_ns / 1e3) : "-";
}

TextTable file_table(const LoadedCaptures& loaded, bool raw) {
  TextTable t;
  t.columns = {"file",    "comm",    "rank",     "nranks",         "events", "never stopped",
               "records", "dropped", "KernelCh", "stale KernelCh", "clock"};
  if (raw) {
    t.columns.insert(t.columns.end(), {"offset_ns", "drift_ppm", "uncertainty_ns"});
  } else {
    t.columns.insert(t.columns.end(), {"offset (us)", "drift (ppm)", "± (us)"});
  }
  for (const auto& f : loaded.files) {
    const auto& comm = f->dump.comm;
    const auto& clock = f->clock;
    std::vector<std::string> row = {f->dump.path,
                                    comm_hex(comm.comm_hash),
                                    std::to_string(comm.rank),
                                    std::to_string(comm.nranks),
                                    std::to_string(total_events(f->events.counts)),
                                    std::to_string(total_never_stopped(f->events.counts)),
                                    std::to_string(f->dump.records.size()),
                                    std::to_string(comm.records_dropped),
                                    std::to_string(f->kernel_channels.kernel_channels),
                                    std::to_string(f->kernel_channels.stale()),
                                    clock.method_name()};
    const bool drift = clock.method == ClockFitMethod::kSampleOffsetDrift;
    if (raw) {
      row.push_back(clock.usable() ? fmt::format("{:.1f}", clock.offset_ns) : "");
      row.push_back(drift ? fmt::format("{:.6f}", clock.drift * 1e6) : "");
      row.push_back(clock.uncertainty_ns ? fmt::format("{:.1f}", *clock.uncertainty_ns) : "");
    } else {
      row.push_back(clock.usable() ? fmt::format("{:.3f}", clock.offset_ns / 1e3) : "-");
      row.push_back(drift ? fmt::format("{:.3f}", clock.drift * 1e6) : "-");
      row.push_back(uncertainty_us(clock));
    }
    t.add_row(std::move(row));
  }
  return t;
}

void write_file_text(const RankCapture& f, std::string& out) {
  const ingest::NpktDump& d = f.dump;
  const auto& c = d.comm;
  const auto& n = f.events.counts;
  out += fmt::format("file {}\n", d.path);
  out += fmt::format("  communicator  {}{}, rank {} of {}, {} node(s)\n", comm_hex(c.comm_hash),
                     d.meta("comm_name").empty() ? "" : " (" + d.meta("comm_name") + ")", c.rank,
                     c.nranks, c.nnodes);
  out += fmt::format("  host          {}, pid {}\n", or_dash(d.meta("hostname")), c.pid);
  out += fmt::format("  gpu           {}, uuid {}, bus {}, cuda device {}\n",
                     or_dash(d.meta("gpu.name")), or_dash(d.meta("gpu.uuid")),
                     or_dash(d.meta("gpu.pci_bus_id")), or_dash(d.meta("gpu.cuda_device")));
  out += fmt::format("  nccl          {}, profiler API v{}, format 1.{}\n",
                     or_dash(d.meta("nccl.version")), c.profiler_api, d.minor_version);
  out += fmt::format("  capture       events {} (mask {:#x}), buffer {} MB, plugin {}\n",
                     or_dash(d.meta("capture.events")), c.event_mask,
                     or_dash(d.meta("capture.buffer_size_mb")),
                     or_dash(d.meta("capture.plugin_version")));
  out += fmt::format("  time          {} to {} ({:.3f} ms), ended by {}\n",
                     describe_time(c.capture_start_ns), describe_time(c.capture_end_ns),
                     static_cast<double>(c.capture_end_ns - c.capture_start_ns) / 1e6,
                     end_reason_name(c.end_reason));
  out += fmt::format(
      "  records       {} written, {} dropped (buffer full), {} incomplete, {} after the dump "
      "(capacity {})\n",
      d.records.size(), c.records_dropped, c.records_incomplete, c.events_after_dump,
      c.records_capacity);
  out += fmt::format("  events        {}\n", events_line(f));
  out += fmt::format("  never stopped {}\n", never_stopped_line(f));
  out += fmt::format(
      "  unmatched     {} stop(s) and {} state(s) of ids never started, {} double stop(s) "
      "(NCCL's stale handle, ignored), {} duplicate start(s), {} parent(s) not in this file\n",
      n.stops_unknown_id, n.states_unknown_id, n.double_stops, n.duplicate_starts,
      n.missing_parents);
  out += fmt::format("  clock         {}", f.clock.describe());
  if (f.clock.invalid_samples > 0) {
    out += fmt::format(" ({} invalid sample(s) ignored)", f.clock.invalid_samples);
  }
  if (!d.meta("clock.note").empty()) out += fmt::format(" (note: {})", d.meta("clock.note"));
  out += "\n";
  out += fmt::format("  KernelCh      {}\n", kernel_channels_line(f));
  if (f.kernel_channels.stale() > 0) {
    out += fmt::format(
        "                stale = timestamps of another work item: NCCL hands each channel's GPU "
        "times over through a 64-entry ring indexed by a work counter, and when host and device "
        "counters fall out of step the proxy reads another work's slot. Stale events are left "
        "out of GPU spans (tolerance ± {:.3f} us).\n",
        f.kernel_channels.tolerance_ns / 1e3);
  }
  out += "\n";
}

void write_text(const LoadedCaptures& loaded, const CommonOptions& o, std::string& out) {
  std::uint64_t records = 0;
  std::uint64_t dropped = 0;
  std::uint64_t events = 0;
  for (const auto& f : loaded.files) {
    records += f->dump.records.size();
    dropped += f->dump.comm.records_dropped;
    events += total_events(f->events.counts);
  }
  out += fmt::format("dump          {}\n", o.path);
  out += fmt::format("format        npkit dump v1 (.npkt), {} file(s), {} communicator(s)\n",
                     loaded.files.size(), loaded.comms.size());
  out += fmt::format("totals        {} records, {} dropped, {} events\n", records, dropped, events);
  for (const auto& comm : loaded.comms) out += "  " + describe_comm(comm) + "\n";
  out += "\n";
  for (const auto& f : loaded.files) write_file_text(*f, out);
  render_text(file_table(loaded, false), out);
}

void write_clock_json(JsonWriter& w, const RankCapture& f) {
  const HostGpuClock& clock = f.clock;
  w.key("clock");
  w.begin_object();
  w.field("method", clock.method_name());
  w.field("description", clock.describe());
  if (clock.usable()) {
    w.field("reference_gpu_ns", clock.reference_gpu_ns);
    w.field("offset_ns", clock.offset_ns);
    w.field("drift_ppm", clock.drift * 1e6);
  }
  if (clock.uncertainty_ns) w.field("uncertainty_ns", *clock.uncertainty_ns);
  w.field("observations", clock.observations);
  w.field("samples", static_cast<std::uint64_t>(f.dump.clock_samples.size()));
  w.field("invalid_samples", clock.invalid_samples);
  w.field("note", f.dump.meta("clock.note"));
  w.end_object();
}

void write_kernel_channels_json(JsonWriter& w, const RankCapture& f) {
  const KernelChannelCheck& k = f.kernel_channels;
  w.key("kernel_channels");
  w.begin_object();
  w.field("events", k.kernel_channels);
  w.field("without_timestamps", k.open);
  w.field("stale", k.stale());
  w.field("tolerance_ns", k.tolerance_ns);
  w.key("stale_reasons");
  w.begin_object();
  w.field("before_api", k.before_api);
  w.field("after_noticed", k.after_noticed);
  w.field("stop_before_start", k.stop_before_start);
  w.field("out_of_order", k.out_of_order);
  w.end_object();
  w.key("by_collective");
  w.begin_array();
  for (const auto& fs : summarize_by_func(f)) {
    w.begin_object();
    w.field("collective", fs.func);
    w.field("events", fs.kernel_channels);
    w.field("stale", fs.stale_channels);
    w.field("operations_all_stale", fs.untimed_stale);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void write_file_json(JsonWriter& w, const RankCapture& f) {
  const ingest::NpktDump& d = f.dump;
  const auto& c = d.comm;
  const auto& n = f.events.counts;
  w.begin_object();
  w.field("path", d.path);
  w.field("format_minor", static_cast<unsigned>(d.minor_version));
  w.key("comm");
  w.begin_object();
  w.field("hash", comm_hex(c.comm_hash));
  w.field("name", d.meta("comm_name"));
  w.field("rank", c.rank);
  w.field("nranks", c.nranks);
  w.field("nnodes", c.nnodes);
  w.end_object();
  w.field("hostname", d.meta("hostname"));
  w.field("pid", c.pid);
  w.key("gpu");
  w.begin_object();
  w.field("name", d.meta("gpu.name"));
  w.field("uuid", d.meta("gpu.uuid"));
  w.field("pci_bus_id", d.meta("gpu.pci_bus_id"));
  w.field("cuda_device", d.meta("gpu.cuda_device"));
  w.end_object();
  w.field("nccl_version", d.meta("nccl.version"));
  w.field("profiler_api", c.profiler_api);
  w.key("capture");
  w.begin_object();
  w.field("events", d.meta("capture.events"));
  w.field("event_mask", c.event_mask);
  w.field("buffer_size_mb", d.meta("capture.buffer_size_mb"));
  w.field("plugin_version", d.meta("capture.plugin_version"));
  w.field("start_ns", c.capture_start_ns);
  w.field("end_ns", c.capture_end_ns);
  w.field("end_reason", end_reason_name(c.end_reason));
  w.end_object();
  w.key("records");
  w.begin_object();
  w.field("capacity", c.records_capacity);
  w.field("attempted", c.records_attempted);
  w.field("written", static_cast<std::uint64_t>(d.records.size()));
  w.field("dropped", c.records_dropped);
  w.field("incomplete", c.records_incomplete);
  w.field("after_dump", c.events_after_dump);
  w.end_object();
  w.key("events");
  w.begin_array();
  for (std::uint32_t t = 0; t < kEventTypeSlots; ++t) {
    if (n.started[t] == 0) continue;
    w.begin_object();
    w.field("type", profiler_type_name(d, t));
    w.field("started", n.started[t]);
    w.field("never_stopped", n.never_stopped[t]);
    w.end_object();
  }
  w.end_array();
  w.key("unmatched");
  w.begin_object();
  w.field("stops_of_unknown_ids", n.stops_unknown_id);
  w.field("states_of_unknown_ids", n.states_unknown_id);
  w.field("double_stops", n.double_stops);
  w.field("duplicate_starts", n.duplicate_starts);
  w.field("missing_parents", n.missing_parents);
  w.end_object();
  write_clock_json(w, f);
  write_kernel_channels_json(w, f);
  w.end_object();
}

void write_json(const LoadedCaptures& loaded, const CommonOptions& o, std::string& out) {
  JsonWriter w(out);
  w.begin_object();
  w.field("schema", "npkit-analyze.npkt-info");
  w.field("schema_version", 1);
  w.field("path", o.path);
  w.key("communicators");
  w.begin_array();
  for (const auto& comm : loaded.comms) {
    w.begin_object();
    w.field("hash", comm_hex(comm.comm_hash));
    w.field("name", comm.name);
    w.field("nranks", comm.nranks);
    w.key("ranks");
    w.begin_array();
    for (const auto* r : comm.ranks) w.value(r->rank());
    w.end_array();
    w.key("absent_ranks");
    w.begin_array();
    for (auto r : comm.absent_ranks) w.value(r);
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.key("files");
  w.begin_array();
  for (const auto& f : loaded.files) write_file_json(w, *f);
  w.end_array();
  write_warnings_json(w, loaded.diagnostics);
  w.end_object();
}

}  // namespace

Result<int> run_npkt_info(const CommonOptions& o, CliContext& context) {
  auto loaded = load_npkt_input(o);
  if (!loaded) return loaded.error();
  std::string text;
  switch (output_format(o)) {
    case OutputFormat::kJson:
      write_json(*loaded, o, text);
      break;
    case OutputFormat::kCsv:
      render_csv(file_table(*loaded, true), text);
      break;
    case OutputFormat::kTable:
      write_text(*loaded, o, text);
      break;
  }
  NPKIT_TRY(write_output(o, text, context));
  print_warnings(loaded->diagnostics, o, context);
  return 0;
}

}  // namespace npkit::cli
