// What `info` shows of .npkt files beyond what every input shows (run/input_details.hpp): per file
// its capture settings, records, events, clock fit and KernelCh checks, and the event records'
// streams and names.
#include <fmt/format.h>

#include <algorithm>

#include "import/npkt/npkt_input.hpp"
#include "import/npkt/profiler_rank_summary.hpp"
#include "util/saturating.hpp"
#include "util/time_text.hpp"

namespace npkit {
namespace {

const char* end_reason_name(std::uint32_t reason) {
  switch (reason) {
    case format::kEndFinalize:
      return "finalize";
    case format::kEndProcessExit:
      return "process exit";
    case format::kEndLive:
      return "live file (the process ended before its dump)";
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

const char* source_name(std::uint32_t source) {
  switch (source) {
    case format::kStreamGpuBlock:
      return "gpu block";
    case format::kStreamGpuWarp:
      return "gpu warp";
    default:
      return "host thread";
  }
}

const char* event_kind_name(EventKind kind) {
  switch (kind) {
    case EventKind::kEntry:
      return "ENTRY";
    case EventKind::kExit:
      return "EXIT";
    case EventKind::kInstant:
      break;
  }
  return "instant";
}

// Event streams summed, of one file or (file == nullptr) of all.
struct EventTotals {
  std::uint64_t streams = 0;
  std::uint64_t gpu_streams = 0;
  std::uint64_t records = 0;
  std::uint64_t dropped = 0;
  std::uint64_t pairs = 0;
  std::uint64_t instants = 0;
  std::uint64_t unmatched = 0;
  std::uint64_t unknown_ids = 0;
};

EventTotals event_totals(const LoadedCaptures& loaded, const NpktDump* file) {
  EventTotals t;
  for (const auto& s : loaded.event_streams) {
    if (file != nullptr && s.file->dump != file) continue;
    ++t.streams;
    if (s.track.kind == TrackKind::kGpu) ++t.gpu_streams;
    t.records += s.stats.records;
    t.dropped += s.file->dump->streams[s.stream].records_dropped;
    t.pairs += s.stats.spans;
    t.instants += s.stats.instants;
    t.unmatched += s.stats.unmatched_entries + s.stats.unmatched_exits;
    t.unknown_ids += s.stats.unknown_ids;
  }
  return t;
}

std::string event_records_line(const EventTotals& t) {
  return fmt::format(
      "{} in {} stream(s) ({} GPU, {} host), {} dropped; {} pairs, {} instants, {} unmatched, {} "
      "unknown-id",
      t.records, t.streams, t.gpu_streams, t.streams - t.gpu_streams, t.dropped, t.pairs,
      t.instants, t.unmatched, t.unknown_ids);
}

// A file of event records alone: the plugin's lines (NCCL, capture mask, profiler records) say
// nothing about it.
bool events_only(const NpktDump& d) {
  return d.records.empty() && d.has_event_streams();
}

std::string clock_line(const RankCapture& f) {
  const NpktDump& d = f.dump;
  std::string s = f.clock.describe();
  if (f.clock.invalid_samples > 0) {
    s += fmt::format(" ({} invalid sample(s) ignored)", f.clock.invalid_samples);
  }
  if (!d.meta("clock.note").empty()) s += fmt::format(" (note: {})", d.meta("clock.note"));
  return s;
}

std::vector<Field> plugin_fields(const RankCapture& f) {
  const NpktDump& d = f.dump;
  const auto& c = d.comm;
  std::vector<Field> fields;
  fields.push_back(
      {"nccl", fmt::format("{}, profiler API v{}, format 1.{}", or_dash(d.meta("nccl.version")),
                           c.profiler_api, d.minor_version)});
  fields.push_back({"capture", fmt::format("events {} (mask {:#x}), buffer {} MB, plugin {}",
                                           or_dash(d.meta("capture.events")), c.event_mask,
                                           or_dash(d.meta("capture.buffer_size_mb")),
                                           or_dash(d.meta("capture.plugin_version")))});
  if (!d.meta("capture.live_file").empty()) {
    fields.push_back({"live file", d.meta("capture.live_file")});
  }
  if (!d.meta("capture.chained_plugin").empty()) {
    fields.push_back({"chained", d.meta("capture.chained_plugin")});
  }
  return fields;
}

DetailBlock file_block(const LoadedCaptures& loaded, const RankCapture& f) {
  const NpktDump& d = f.dump;
  const auto& c = d.comm;
  const auto& n = f.events.counts;
  std::vector<Field> fields;
  fields.push_back({"communicator",
                    fmt::format("{}{}, rank {} of {}, {} node(s)", comm_hex(c.comm_hash),
                                d.meta("comm_name").empty() ? "" : " (" + d.meta("comm_name") + ")",
                                c.rank, c.nranks, c.nnodes)});
  fields.push_back({"host", fmt::format("{}, pid {}", or_dash(d.meta("hostname")), c.pid)});
  fields.push_back(
      {"gpu", fmt::format("{}, uuid {}, bus {}, cuda device {}", or_dash(d.meta("gpu.name")),
                          or_dash(d.meta("gpu.uuid")), or_dash(d.meta("gpu.pci_bus_id")),
                          or_dash(d.meta("gpu.cuda_device")))});
  const Field time{
      "time", fmt::format("{} to {} ({:.3f} ms), ended by {}", describe_time(c.capture_start_ns),
                          describe_time(c.capture_end_ns),
                          static_cast<double>(c.capture_end_ns - c.capture_start_ns) / 1e6,
                          end_reason_name(c.end_reason))};
  if (events_only(d)) {
    fields.push_back(
        {"format", fmt::format("1.{}, event records only (no profiler records)", d.minor_version)});
    fields.push_back(time);
    fields.push_back({"event records", event_records_line(event_totals(loaded, &d))});
    fields.push_back({"clock", clock_line(f)});
  } else {
    for (auto& field : plugin_fields(f)) fields.push_back(std::move(field));
    fields.push_back(time);
    fields.push_back(
        {"records", fmt::format("{} written, {} dropped (buffer full), {} incomplete, {} after "
                                "the dump (capacity {})",
                                d.records.size(), c.records_dropped, c.records_incomplete,
                                c.events_after_dump, c.records_capacity)});
    fields.push_back({"events", events_line(f)});
    fields.push_back({"never stopped", never_stopped_line(f)});
    std::string unmatched = fmt::format(
        "{} stop(s) and {} state(s) of ids never started, {} double stop(s) (NCCL's "
        "stale handle, ignored), {} duplicate start(s), {} parent(s) not in this file",
        n.stops_unknown_id, n.states_unknown_id, n.double_stops, n.duplicate_starts,
        n.missing_parents);
    if (n.details_unknown > 0) {
      unmatched += fmt::format(", {} detail record(s) of ids never started or of an unknown kind",
                               n.details_unknown);
    }
    fields.push_back({"unmatched", unmatched});
    if (d.has_event_streams()) {
      fields.push_back({"event records", event_records_line(event_totals(loaded, &d))});
    }
    fields.push_back({"clock", clock_line(f)});
    fields.push_back({"KernelCh", kernel_channels_line(f)});
    if (f.kernel_channels.stale() > 0) {
      fields.push_back(
          {"", fmt::format("stale = timestamps of another work item: NCCL hands each channel's "
                           "GPU times over through a 64-entry ring indexed by a work counter, and "
                           "when host and device counters fall out of step the proxy reads "
                           "another work's slot. Stale events are left out of GPU spans "
                           "(tolerance ± {:.3f} us).",
                           f.kernel_channels.tolerance_ns / 1e3)});
    }
  }
  return DetailBlock{DetailBlock::Kind::kFields, "file " + d.path, std::move(fields), {}, {}};
}

TextTable event_stream_table(const LoadedCaptures& loaded) {
  std::int64_t longest = 0;
  for (const auto& s : loaded.event_streams) {
    if (s.stats.first_ns <= s.stats.last_ns) {
      longest = std::max(longest, sat_sub(s.stats.last_ns, s.stats.first_ns));
    }
  }
  const TimeScale scale = time_scale_for(longest);
  TextTable t;
  t.title = "Event streams";
  t.columns = {"file",
               "rank",
               "stream",
               "source",
               "name",
               "written",
               "dropped",
               "capacity",
               "pairs",
               "instants",
               "unmatched",
               "max depth",
               scale.header("span"),
               "clock"};
  for (const auto& s : loaded.event_streams) {
    const NpktDump& d = *s.file->dump;
    const format::StreamInfo& info = d.streams[s.stream];
    std::string source = source_name(info.source);
    switch (info.source) {
      case format::kStreamGpuBlock:
        source += fmt::format(" {}", info.block);
        break;
      case format::kStreamGpuWarp:
        source += fmt::format(" {}.{}", info.block, info.warp);
        break;
      default:
        source += fmt::format(" {}", info.os_tid);
        break;
    }
    t.add_row({d.path, std::to_string(s.track.rank), std::to_string(s.track.index), source,
               or_dash(d.string_at(info.name_string)), std::to_string(info.records_written),
               std::to_string(info.records_dropped), std::to_string(info.capacity),
               std::to_string(s.stats.spans), std::to_string(s.stats.instants),
               std::to_string(s.stats.unmatched_entries + s.stats.unmatched_exits),
               std::to_string(s.max_depth),
               s.stats.first_ns <= s.stats.last_ns
                   ? scale(static_cast<double>(sat_sub(s.stats.last_ns, s.stats.first_ns)))
                   : "-",
               s.clock});
  }
  return t;
}

std::string phase_of(const EventRecords& events, std::uint16_t base) {
  const std::uint16_t p = events.phases.phase_of_base[base];
  return p == kInheritPhase ? "inherit" : events.phases.phase_names[p];
}

// Every (id, name) of the files, in order of first appearance.
TextTable event_name_table(const LoadedCaptures& loaded) {
  const EventRecords& events = loaded.events;
  TextTable t;
  t.title = "Event names (phase: a --phase-map rule, else the hint, else the built-in rules)";
  t.columns = {"id", "name", "kind", "phase hint", "phase"};
  std::vector<std::pair<std::uint16_t, std::string>> seen;
  for (const auto& f : events.files) {
    for (const auto& n : f.dump->event_names) {
      if (std::find(seen.begin(), seen.end(), std::pair{n.id, n.name}) != seen.end()) continue;
      seen.emplace_back(n.id, n.name);
      const EventIdName* e = events.names.find(f.names, n.id);
      t.add_row({event_id_hex(n.id), n.name, event_kind_name(e->kind), or_dash(n.phase),
                 phase_of(events, e->base)});
    }
  }
  return t;
}

std::vector<std::string> unmatched_event_lines(const LoadedCaptures& loaded) {
  std::vector<std::string> lines;
  for (const auto& s : loaded.event_streams) {
    for (const auto& u : s.unmatched) {
      lines.push_back(
          fmt::format("{} record {} (offset {}): {} {}", locate_event_stream(*s.file, s.stream),
                      u.record, u.offset, u.name,
                      u.kind == EventKind::kEntry ? "ENTRY without EXIT" : "EXIT without ENTRY"));
    }
  }
  return lines;
}

DetailBlock table_block(TextTable table) {
  return DetailBlock{DetailBlock::Kind::kTable, "", {}, std::move(table), {}};
}

void write_clock_json(DetailWriter& w, const RankCapture& f) {
  const HostGpuClock& clock = f.clock;
  w.object("clock", [&] {
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
  });
}

void write_kernel_channels_json(DetailWriter& w, const RankCapture& f) {
  const KernelChannelCheck& k = f.kernel_channels;
  w.object("kernel_channels", [&] {
    w.field("events", k.kernel_channels);
    w.field("without_timestamps", k.open);
    w.field("stale", k.stale());
    w.field("tolerance_ns", k.tolerance_ns);
    w.object("stale_reasons", [&] {
      w.field("before_api", k.before_api);
      w.field("after_noticed", k.after_noticed);
      w.field("stop_before_start", k.stop_before_start);
      w.field("out_of_order", k.out_of_order);
    });
    w.objects("by_collective", summarize_by_func(f), [&](const auto& fs) {
      w.field("collective", fs.func);
      w.field("events", fs.kernel_channels);
      w.field("stale", fs.stale_channels);
      w.field("operations_with_stale", fs.untimed_stale);
    });
  });
}

void write_event_records_json(DetailWriter& w, const LoadedCaptures& loaded, const NpktDump& d) {
  const EventRecords& events = loaded.events;
  w.object("event_records", [&] {
    w.key("streams");
    w.begin_array();
    for (const auto& s : loaded.event_streams) {
      if (s.file->dump != &d) continue;
      const format::StreamInfo& info = d.streams[s.stream];
      w.begin_object();
      w.field("stream", s.track.index);
      w.field("source", source_name(info.source));
      w.field("cuda_device", info.cuda_device);
      w.field("block", info.block);
      w.field("warp", info.warp);
      w.field("os_tid", info.os_tid);
      w.field("name", d.string_at(info.name_string));
      w.field("clock", s.clock);
      w.field("cycles_per_second", info.cycles_per_second);
      w.field("written", info.records_written);
      w.field("dropped", info.records_dropped);
      w.field("capacity", info.capacity);
      w.field("pairs", s.stats.spans);
      w.field("instants", s.stats.instants);
      w.field("unmatched_entries", s.stats.unmatched_entries);
      w.field("unmatched_exits", s.stats.unmatched_exits);
      w.field("unknown_ids", s.stats.unknown_ids);
      w.field("nonmonotonic", s.stats.nonmonotonic);
      w.field("max_depth", s.max_depth);
      w.field("time_base", s.stats.domain == TimeDomain::kHost ? "host" : "own");
      if (s.stats.first_ns <= s.stats.last_ns) {
        w.field("first_ns", s.stats.first_ns);
        w.field("last_ns", s.stats.last_ns);
      }
      w.objects("unmatched", s.unmatched, [&](const auto& u) {
        w.field("name", u.name);
        w.field("event", u.kind == EventKind::kEntry ? "ENTRY without EXIT" : "EXIT without ENTRY");
        w.field("record", u.record);
        w.field("offset", u.offset);
      });
      w.end_object();
    }
    w.end_array();
    w.key("names");
    w.begin_array();
    for (const auto& f : events.files) {
      if (f.dump != &d) continue;
      for (const auto& n : d.event_names) {
        const EventIdName* e = events.names.find(f.names, n.id);
        w.begin_object();
        w.field("id", static_cast<unsigned>(n.id));
        w.field("name", n.name);
        w.field("kind", event_kind_name(e->kind));
        w.field("phase_hint", n.phase);
        w.field("phase", phase_of(events, e->base));
        w.end_object();
      }
    }
    w.end_array();
  });
}

void write_file_json(DetailWriter& w, const LoadedCaptures& loaded, const RankCapture& f) {
  const NpktDump& d = f.dump;
  const auto& c = d.comm;
  const auto& n = f.events.counts;
  w.begin_object();
  w.field("path", d.path);
  w.field("format_minor", static_cast<unsigned>(d.minor_version));
  w.object("comm", [&] {
    w.field("hash", comm_hex(c.comm_hash));
    w.field("name", d.meta("comm_name"));
    w.field("rank", c.rank);
    w.field("nranks", c.nranks);
    w.field("nnodes", c.nnodes);
  });
  w.field("hostname", d.meta("hostname"));
  w.field("pid", c.pid);
  w.object("gpu", [&] {
    w.field("name", d.meta("gpu.name"));
    w.field("uuid", d.meta("gpu.uuid"));
    w.field("pci_bus_id", d.meta("gpu.pci_bus_id"));
    w.field("cuda_device", d.meta("gpu.cuda_device"));
  });
  w.field("nccl_version", d.meta("nccl.version"));
  w.field("profiler_api", c.profiler_api);
  w.object("capture", [&] {
    w.field("events", d.meta("capture.events"));
    w.field("event_mask", c.event_mask);
    w.field("buffer_size_mb", d.meta("capture.buffer_size_mb"));
    w.field("plugin_version", d.meta("capture.plugin_version"));
    w.field("live_file", d.meta("capture.live_file"));
    w.field("chained_plugin", d.meta("capture.chained_plugin"));
    w.field("start_ns", c.capture_start_ns);
    w.field("end_ns", c.capture_end_ns);
    w.field("end_reason", end_reason_name(c.end_reason));
  });
  w.object("records", [&] {
    w.field("capacity", c.records_capacity);
    w.field("attempted", c.records_attempted);
    w.field("written", static_cast<std::uint64_t>(d.records.size()));
    w.field("dropped", c.records_dropped);
    w.field("incomplete", c.records_incomplete);
    w.field("after_dump", c.events_after_dump);
  });
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
  w.object("unmatched", [&] {
    w.field("stops_of_unknown_ids", n.stops_unknown_id);
    w.field("states_of_unknown_ids", n.states_unknown_id);
    w.field("double_stops", n.double_stops);
    w.field("duplicate_starts", n.duplicate_starts);
    w.field("missing_parents", n.missing_parents);
  });
  write_clock_json(w, f);
  write_kernel_channels_json(w, f);
  if (d.has_event_streams() && d.comm.rank >= 0) write_event_records_json(w, loaded, d);
  w.end_object();
}

}  // namespace

InputDetails NpktInput::details() const {
  const LoadedCaptures& loaded = loaded_;
  std::uint64_t records = 0;
  std::uint64_t dropped = 0;
  std::uint64_t events = 0;
  for (const auto& f : loaded.files) {
    records += f->dump.records.size();
    dropped += f->dump.comm.records_dropped;
    events += total_events(f->events.counts);
  }
  std::vector<Field> fields = {{"records", fmt::format("{} records, {} dropped, {} profiler events",
                                                       records, dropped, events)}};
  if (!loaded.events.empty()) {
    fields.push_back({"event records", event_records_line(event_totals(loaded, nullptr))});
  }
  InputDetails out;
  out.blocks.push_back(DetailBlock{DetailBlock::Kind::kFields, "", std::move(fields), {}, {}});
  for (const auto& f : loaded.files) out.blocks.push_back(file_block(loaded, *f));
  out.blocks.push_back(table_block(file_table(loaded, false)));
  if (!loaded.events.empty()) {
    out.blocks.push_back(table_block(event_stream_table(loaded)));
    out.blocks.push_back(table_block(event_name_table(loaded)));
    if (auto unmatched = unmatched_event_lines(loaded); !unmatched.empty()) {
      out.blocks.push_back(DetailBlock{DetailBlock::Kind::kList,
                                       "unmatched events (first ones per stream)",
                                       {},
                                       {},
                                       std::move(unmatched)});
    }
  }
  out.csv = file_table(loaded, true);
  DetailWriter w(out.json);
  w.key("files");
  w.begin_array();
  for (const auto& f : loaded.files) write_file_json(w, loaded, *f);
  w.end_array();
  return out;
}

}  // namespace npkit
