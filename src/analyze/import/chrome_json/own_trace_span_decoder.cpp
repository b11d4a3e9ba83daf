#include "import/chrome_json/own_trace_span_decoder.hpp"

#include <simdjson.h>

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <limits>

#include "import/chrome_json/json_number.hpp"
#include "import/pair/open_event.hpp"
#include "run/trace_layout.hpp"
#include "util/saturating.hpp"

namespace npkit {
namespace {

constexpr std::int64_t kMaxId = std::numeric_limits<std::uint32_t>::max();

std::uint32_t clamp_u32(std::uint64_t v) {
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(v, 0xFFFFFFFFu));
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// "12" → 12 (a whole decimal number and nothing else).
std::optional<std::uint32_t> whole_number(std::string_view s) {
  std::uint32_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

}  // namespace

OwnTraceSpanDecoder::OwnTraceSpanDecoder(std::string path, EventNameBook& names, TrackBook& tracks,
                                         const RankFilter& ranks, JsonSpanTarget& target,
                                         Diagnostics& diagnostics)
    : path_(std::move(path)),
      names_(names),
      tracks_(tracks),
      ranks_(ranks),
      target_(target),
      diagnostics_(diagnostics) {}

void OwnTraceSpanDecoder::warn(std::string_view category, const TraceEvent& e,
                               const std::string& what) {
  diagnostics_.warn(category, fmt::format("{}: offset {}: {}", path_, e.offset, what));
}

Status OwnTraceSpanDecoder::on_header(const TraceHeader& header) {
  const std::string* layout = header.other("layout");
  current_layout_ = layout != nullptr && *layout == kTraceLayout;
  if (const std::string* origin = header.other("time_origin_ns")) {
    const auto ns = parse_json_int(*origin);
    if (!ns) return Error{path_ + ": otherData.time_origin_ns is not an integer: " + *origin};
    host_origin_ns_ = *ns;
  }
  if (const std::string* counters = header.other("gpu_counter_origin_ns")) {
    simdjson::dom::parser parser;
    simdjson::dom::object obj;
    if (parser.parse(*counters).get_object().get(obj)) {
      return Error{path_ + ": otherData.gpu_counter_origin_ns is not an object"};
    }
    for (auto [key, value] : obj) {
      const auto rank = whole_number(key);
      std::int64_t ns = 0;
      if (!rank || value.get_int64().get(ns)) {
        return Error{path_ + ": otherData.gpu_counter_origin_ns holds a bad entry '" +
                     std::string(key) + "'"};
      }
      gpu_counter_origin_ns_[*rank] = ns;
    }
  }
  return Ok{};
}

bool OwnTraceSpanDecoder::locate(const TraceEvent& e, TrackRef& track, TimeDomain& domain,
                                 std::int64_t& origin) {
  if (!e.pid || !e.tid || *e.pid < 0 || *e.pid > kMaxId || *e.tid <= 0 || *e.tid > kMaxId) {
    return false;
  }
  const auto pid = static_cast<std::uint32_t>(*e.pid);
  const auto tid = static_cast<std::uint32_t>(*e.tid);
  if (current_layout_) return locate_in_layout(e, pid, tid, track, domain, origin);
  domain = TimeDomain::kHost;
  origin = host_origin_ns_;
  track.rank = pid;
  if (pid >= kGpuCounterPidBase) {
    track.rank = pid - kGpuCounterPidBase;
    domain = TimeDomain::kGpuCounter;
    auto it = gpu_counter_origin_ns_.find(track.rank);
    origin = it == gpu_counter_origin_ns_.end() ? 0 : it->second;
  }
  const std::string_view cat = e.cat;
  if (starts_with(cat, "gpu")) {
    track.kind = TrackKind::kGpu;
  } else if (starts_with(cat, "cpu")) {
    track.kind = TrackKind::kCpu;
  } else if (auto it = thread_names_.find(std::uint64_t{pid} << 32 | tid);
             it != thread_names_.end()) {
    track.kind = it->second.kind;
  } else {
    track.kind = tid >= 1000 && tid % 1000 == 0 ? TrackKind::kCpu : TrackKind::kGpu;
  }
  if (track.kind == TrackKind::kGpu) {
    track.index = tid - 1;
  } else {
    if (tid < 1000) return false;
    track.index = tid / 1000 - 1;
  }
  return true;
}

// run/trace_layout.hpp: rank R is process R + 1 (100000 + R + 1 on its GPU clock), GPU buffer B
// thread 10^7 + 1000·B, CPU channel C lane L thread 2·10^7 + 1000·C + L.
bool OwnTraceSpanDecoder::locate_in_layout(const TraceEvent& e, std::uint32_t pid,
                                           std::uint32_t tid, TrackRef& track, TimeDomain& domain,
                                           std::int64_t& origin) {
  domain = TimeDomain::kHost;
  origin = host_origin_ns_;
  if (pid == 0 || pid >= kTracePidCyclesBase) return false;
  track.rank = pid - 1;
  if (pid > kTracePidOwnClockBase) {
    track.rank = pid - kTracePidOwnClockBase - 1;
    domain = TimeDomain::kGpuCounter;
    auto it = gpu_counter_origin_ns_.find(track.rank);
    origin = it == gpu_counter_origin_ns_.end() ? 0 : it->second;
  } else if (pid == kTracePidOwnClockBase) {
    return false;
  }
  if (tid >= kTraceTidGpuBase && tid < kTraceTidProxyBase) {
    track.kind = TrackKind::kGpu;
    track.index = (tid - kTraceTidGpuBase) / 1000;
  } else if (tid >= kTraceTidProxyBase && tid < kTraceTidEventBase) {
    track.kind = TrackKind::kCpu;
    track.index = (tid - kTraceTidProxyBase) / 1000;
  } else {
    return false;
  }
  const std::string_view cat = e.cat;
  return !(starts_with(cat, "gpu") && track.kind != TrackKind::kGpu) &&
         !(starts_with(cat, "cpu") && track.kind != TrackKind::kCpu);
}

void OwnTraceSpanDecoder::on_thread_name(const TraceEvent& e) {
  if (!e.pid || !e.tid || *e.pid < 0 || *e.pid > kMaxId || *e.tid < 0 || *e.tid > kMaxId) return;
  const auto name = e.arg_string("name");
  if (!name) return;
  const std::uint64_t key =
      static_cast<std::uint64_t>(*e.pid) << 32 | static_cast<std::uint64_t>(*e.tid);
  if (current_layout_) return;  // the numbers say it all
  if (starts_with(*name, "gpu buf ")) {
    if (auto index = whole_number(name->substr(8))) {
      thread_names_[key] = ThreadName{TrackKind::kGpu, *index};
    }
  } else if (starts_with(*name, "cpu channel ")) {
    const std::string_view rest = name->substr(12);
    if (auto index = whole_number(rest.substr(0, rest.find(' ')))) {
      thread_names_[key] = ThreadName{TrackKind::kCpu, *index};
    }
  }
}

Status OwnTraceSpanDecoder::on_event(const TraceEvent& e) {
  switch (e.phase()) {
    case 'X':
      return on_span_event(e);
    case 'i':
    case 'I':
      return on_unmatched_event(e);
    case 'M':
      if (e.name == "thread_name") on_thread_name(e);
      return Ok{};
    case 'C':  // counters (busbw) the trace derived from its spans: derived again when read
      return Ok{};
    default:
      if (e.fields == 0) return Ok{};
      warn("unexpected trace event", e,
           e.has_ph ? fmt::format("phase '{}' is not written by npkit-analyze trace; skipped", e.ph)
                    : std::string("event without \"ph\"; skipped"));
      return Ok{};
  }
}

Status OwnTraceSpanDecoder::on_span_event(const TraceEvent& e) {
  TrackRef track;
  TimeDomain domain = TimeDomain::kHost;
  std::int64_t origin = 0;
  if (!e.has_name || !e.ts_ns || !e.dur_ns || !locate(e, track, domain, origin)) {
    warn("incomplete trace event", e,
         fmt::format("X event without a usable name, pid, tid, ts and dur{}; skipped",
                     e.bad_fields.empty() ? "" : fmt::format(" (bad: {})", e.bad_fields)));
    return Ok{};
  }
  tracks_.note_rank(track.rank);
  if (!ranks_.contains(track.rank)) return Ok{};
  const auto base = names_.base_of(e.name);
  if (!base) {
    warn("too many event names", e,
         fmt::format("no event id left for '{}' (256 names at most); skipped", e.name));
    return Ok{};
  }
  const std::string_view cat = e.cat;
  const std::size_t comma = cat.find(',');
  const std::uint16_t recorded =
      comma == std::string_view::npos
          ? names_.phases().other_phase
          : names_.phase_of(cat.substr(comma + 1)).value_or(names_.phases().other_phase);
  Span s;
  s.track = track;
  s.base = *base;
  s.start_ns = sat_add(origin, *e.ts_ns);
  s.end_ns = sat_add(s.start_ns, *e.dur_ns);
  s.exit_size = clamp_u32(e.arg_uint("size").value_or(0));
  s.entry_size = clamp_u32(e.arg_uint("entry_size").value_or(s.exit_size));
  s.seq = e.arg_uint("seq").value_or(0);
  if (const EventArg* records = e.arg("records"); records && records->kind == EventArgKind::kPair) {
    s.entry_record = static_cast<std::uint64_t>(std::max<std::int64_t>(records->pair[0], 0));
    s.exit_record = static_cast<std::uint64_t>(std::max<std::int64_t>(records->pair[1], 0));
  }
  JsonTrack& jt = tracks_.at(track, domain, path_);
  TrackStats& stats = jt.stats;
  stats.records = std::max(stats.records, s.exit_record + 1);
  ++stats.spans;
  note_track_time(stats, s.start_ns);
  note_track_time(stats, s.end_ns);
  if (track.kind == TrackKind::kCpu) {
    s.entry_rsvd = s.exit_rsvd = clamp_u32(e.arg_uint("slot").value_or(0));
    s.lane = clamp_u32(e.arg_uint("lane").value_or(static_cast<std::uint64_t>(*e.tid % 1000)));
    s.sender_rank = static_cast<std::uint8_t>(e.arg_uint("sender_rank").value_or(0));
    s.receiver_rank = static_cast<std::uint8_t>(e.arg_uint("receiver_rank").value_or(0));
    s.step = clamp_u32(e.arg_uint("step").value_or(0));
    tracks_.note_cpu_fields(e.arg("sender_rank") != nullptr, e.arg("step") != nullptr);
    s.phase = resolve_phase(names_.phases().phase_of_base, s.base, names_.phases().other_phase);
    s.root_base = s.base;
    target_.on_span(s, domain);
    return Ok{};
  }
  s.depth = clamp_u32(e.arg_uint("depth").value_or(0));
  s.exit_rsvd = clamp_u32(e.arg_uint("rsvd").value_or(0));
  Group& g = groups_[track_order(track)];
  g.track = track;
  g.domain = domain;
  g.held.push_back(Held{s, recorded});
  if (s.depth == 0) flush(g, true);
  return Ok{};
}

Status OwnTraceSpanDecoder::on_unmatched_event(const TraceEvent& e) {
  constexpr std::string_view kEntry = "unmatched ENTRY ";
  constexpr std::string_view kExit = "unmatched EXIT ";
  const std::string_view name = e.name;
  const bool entry = starts_with(name, kEntry);
  if (!entry && !starts_with(name, kExit)) {
    warn("unexpected trace event", e, "an instant event other than an unmatched event; skipped");
    return Ok{};
  }
  TrackRef track;
  TimeDomain domain = TimeDomain::kHost;
  std::int64_t origin = 0;
  if (!e.ts_ns || !locate(e, track, domain, origin)) {
    warn("incomplete trace event", e, "unmatched-event instant without pid, tid or ts; skipped");
    return Ok{};
  }
  tracks_.note_rank(track.rank);
  if (!ranks_.contains(track.rank)) return Ok{};
  const auto base = names_.base_of(name.substr(entry ? kEntry.size() : kExit.size()));
  if (!base) return Ok{};
  UnmatchedEvent u{track,
                   *base,
                   entry ? EventKind::kEntry : EventKind::kExit,
                   e.arg_uint("record").value_or(0),
                   sat_add(origin, *e.ts_ns),
                   clamp_u32(e.arg_uint("size").value_or(0))};
  JsonTrack& jt = tracks_.at(track, domain, path_);
  jt.stats.records = std::max(jt.stats.records, u.record + 1);
  ++(entry ? jt.stats.unmatched_entries : jt.stats.unmatched_exits);
  note_track_time(jt.stats, u.ns);
  target_.on_unmatched(u, domain);
  return Ok{};
}

// The held spans of a track, in the order their EXITs came: children before their parent, so in
// reverse order each span's parent is the latest span seen one level up.
void OwnTraceSpanDecoder::flush(Group& g, bool complete) {
  const auto n = static_cast<std::int32_t>(g.held.size());
  parent_.assign(static_cast<std::size_t>(n), -1);
  ancestors_.clear();
  const PhaseAssignment& phases = names_.phases();
  for (std::int32_t i = n - 1; i >= 0; --i) {
    Span& s = g.held[static_cast<std::size_t>(i)].span;
    const std::size_t depth = std::min<std::size_t>(s.depth, ancestors_.size());
    if (depth > 0) parent_[static_cast<std::size_t>(i)] = ancestors_[depth - 1];
    ancestors_.resize(depth);
    ancestors_.push_back(i);
    const std::int32_t p = parent_[static_cast<std::size_t>(i)];
    if (p >= 0) {
      const Span& up = g.held[static_cast<std::size_t>(p)].span;
      s.phase = resolve_phase(phases.phase_of_base, s.base, up.phase);
      s.root_base = up.root_base;
    } else {
      s.phase = complete ? resolve_phase(phases.phase_of_base, s.base, phases.other_phase)
                         : g.held[static_cast<std::size_t>(i)].recorded_phase;
      s.root_base = s.base;
    }
    s.child_ns = 0;
  }
  for (std::int32_t i = 0; i < n; ++i) {
    const std::int32_t p = parent_[static_cast<std::size_t>(i)];
    if (p < 0) continue;
    Span& up = g.held[static_cast<std::size_t>(p)].span;
    up.child_ns = sat_add(up.child_ns, g.held[static_cast<std::size_t>(i)].span.duration_ns());
  }
  for (const Held& h : g.held) target_.on_span(h.span, g.domain);
  g.held.clear();
}

void OwnTraceSpanDecoder::finish() {
  for (auto& [key, g] : groups_) {
    if (!g.held.empty()) flush(g, false);
  }
  tracks_.warn_unmatched(path_, diagnostics_);
}

}  // namespace npkit
