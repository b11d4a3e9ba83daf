#include "import/chrome_json/own_event_span_decoder.hpp"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <limits>

#include "import/chrome_json/json_number.hpp"
#include "import/pair/open_event.hpp"
#include "run/trace_layout.hpp"
#include "util/saturating.hpp"

namespace npkit {
namespace {

constexpr std::string_view kNoExit = " (no EXIT)";
constexpr std::string_view kNoEntry = " (no ENTRY)";

std::uint32_t clamp32(std::uint64_t v) {
  return static_cast<std::uint32_t>(
      std::min<std::uint64_t>(v, std::numeric_limits<std::uint32_t>::max()));
}

bool strip_suffix(std::string_view& s, std::string_view suffix) {
  if (!s.ends_with(suffix)) return false;
  s.remove_suffix(suffix.size());
  return true;
}

}  // namespace

Result<TraceEventNames> read_trace_event_names(const TraceHeader& header, const std::string& path) {
  TraceEventNames names;
  const std::string* text = header.other("event_names");
  if (text == nullptr) return names;
  const auto bad = [&](const std::string& what) {
    return Error{path + ": otherData.event_names: " + what +
                 "; expected an array of [NAME, PHASE HINT] string pairs"};
  };
  simdjson::dom::parser parser;
  simdjson::dom::array list;
  if (parser.parse(*text).get_array().get(list) != simdjson::SUCCESS) {
    return bad("not an array");
  }
  for (simdjson::dom::element item : list) {
    simdjson::dom::array pair;
    std::string_view name;
    std::string_view hint;
    if (item.get_array().get(pair) != simdjson::SUCCESS || pair.size() != 2 ||
        pair.at(0).get_string().get(name) != simdjson::SUCCESS ||
        pair.at(1).get_string().get(hint) != simdjson::SUCCESS) {
      return bad(fmt::format("item {} is not a pair of strings", names.bases.size()));
    }
    if (names.bases.size() > std::numeric_limits<std::uint16_t>::max()) {
      return bad("more names than a base number holds");
    }
    names.bases.emplace_back(name);
    names.hints.emplace_back(hint);
  }
  return names;
}

void merge_trace_event_names(TraceEventNames& into, const TraceEventNames& file) {
  for (std::size_t i = 0; i < file.bases.size(); ++i) {
    const auto it = std::find(into.bases.begin(), into.bases.end(), file.bases[i]);
    if (it == into.bases.end()) {
      into.bases.push_back(file.bases[i]);
      into.hints.push_back(file.hints[i]);
    } else if (auto& hint = into.hints[static_cast<std::size_t>(it - into.bases.begin())];
               hint.empty()) {
      hint = file.hints[i];
    }
  }
}

OwnEventSpanDecoder::OwnEventSpanDecoder(std::string path, const TraceEventNames& names,
                                         const PhaseAssignment& phases, const RankFilter& ranks,
                                         SpanSink& sink, Diagnostics& diagnostics)
    : path_(std::move(path)),
      phases_(phases),
      ranks_(ranks),
      sink_(sink),
      diagnostics_(diagnostics) {
  for (std::size_t b = 0; b < names.bases.size(); ++b) {
    base_of_.emplace(names.bases[b], static_cast<std::uint16_t>(b));
  }
}

Status OwnEventSpanDecoder::on_header(const TraceHeader& header) {
  if (const std::string* origin = header.other("time_origin_ns")) {
    const auto ns = parse_json_int(*origin);
    if (!ns) return Error{path_ + ": otherData.time_origin_ns is not an integer: " + *origin};
    origin_ns_ = *ns;
  }
  return Ok{};
}

void OwnEventSpanDecoder::warn(std::string_view category, const TraceEvent& e,
                               const std::string& what) {
  diagnostics_.warn(category, fmt::format("{}: offset {}: {}", path_, e.offset, what));
}

Status OwnEventSpanDecoder::on_event(const TraceEvent& e) {
  const char ph = e.phase();
  if (ph == 'M' && e.name == "process_name" && e.pid) {
    const auto name = e.arg_string("name");
    if (!name || !name->starts_with("rank ")) return Ok{};
    std::string_view s = name->substr(5);
    s = s.substr(0, std::min(s.find(','), s.size()));
    if (const auto rank = parse_json_int(s); rank && *rank >= 0) {
      rank_of_pid_[*e.pid] = *rank;
    }
    return Ok{};
  }
  if ((ph != 'X' && ph != 'i') || (e.cat != "gpu_event" && e.cat != "host_event")) return Ok{};
  Stream* s = stream_of(e);
  if (s == nullptr) return Ok{};
  if (ph == 'X') return on_span(e, *s);
  std::string_view name = e.name;
  if (strip_suffix(name, kNoExit) || strip_suffix(name, kNoEntry)) return on_unmatched(e, *s);
  ++s->stats.instants;
  note_record(*s, e.arg_uint("record").value_or(0));
  return Ok{};
}

OwnEventSpanDecoder::Stream* OwnEventSpanDecoder::stream_of(const TraceEvent& e) {
  if (!e.pid || !e.tid || !e.ts_ns) {
    warn("incomplete trace event", e, "an event-record event without pid, tid or ts; skipped");
    return nullptr;
  }
  const auto rank = rank_of_pid_.find(*e.pid);
  if (rank == rank_of_pid_.end()) {
    warn("event without rank", e,
         fmt::format("process {} has no \"rank R\" name; its events are skipped", *e.pid));
    return nullptr;
  }
  const auto r = static_cast<std::uint32_t>(std::min<std::int64_t>(rank->second, UINT32_MAX));
  if (!ranks_.contains(r)) return nullptr;
  const std::int64_t tid = *e.tid;
  if (tid < kTraceTidEventBase) {
    warn("event outside the stream threads", e,
         fmt::format("tid {} is below the event-stream threads ({}); skipped", tid,
                     kTraceTidEventBase));
    return nullptr;
  }
  const auto index = static_cast<std::uint32_t>(
      std::min<std::int64_t>((tid - kTraceTidEventBase) / (kMaxTraceLane + 1), kMaxTraceIndex));
  const TrackRef track{r, e.cat == "gpu_event" ? TrackKind::kGpu : TrackKind::kCpu, index};
  auto [it, inserted] =
      streams_.try_emplace(TrackKey{track.rank, static_cast<int>(track.kind), track.index});
  Stream& s = it->second;
  if (inserted) {
    s.track = track;
    s.domain = *e.pid >= kTracePidOwnClockBase ? TimeDomain::kGpuCounter : TimeDomain::kHost;
    s.stats.domain = s.domain;
    sink_.begin_track(TrackFile{track, path_, 0}, s.domain);
  }
  return &s;
}

void OwnEventSpanDecoder::note_record(Stream& s, std::uint64_t record) {
  s.stats.records = std::max(s.stats.records, record == UINT64_MAX ? record : record + 1);
}

void OwnEventSpanDecoder::close_down_to(Stream& s, std::uint32_t depth) {
  while (!s.open.empty() && s.open.back().depth >= depth) {
    sink_.on_span(s.open.back());
    s.open.pop_back();
  }
}

std::optional<std::uint16_t> OwnEventSpanDecoder::named_base(std::string_view name,
                                                             const TraceEvent& e) {
  const auto it = base_of_.find(name);
  if (it != base_of_.end()) return it->second;
  warn("unnamed event span", e,
       fmt::format("\"{}\" is not in otherData.event_names; skipped", e.name));
  return std::nullopt;
}

Status OwnEventSpanDecoder::on_span(const TraceEvent& e, Stream& s) {
  const auto base = named_base(e.name, e);
  if (!base) return Ok{};
  Span span;
  span.track = s.track;
  span.base = *base;
  span.depth = static_cast<std::uint32_t>(std::min<std::uint64_t>(
      e.arg_uint("depth").value_or(0), std::numeric_limits<std::uint32_t>::max()));
  span.start_ns = sat_add(origin_ns_, *e.ts_ns);
  span.end_ns = sat_add(span.start_ns, e.dur_ns.value_or(0));
  const std::uint64_t size = e.arg_uint("size").value_or(0);
  const std::uint64_t user = e.arg_uint("user").value_or(0);
  span.entry_size = clamp32(size);
  span.exit_size = clamp32(e.arg_uint("exit_size").value_or(size));
  span.entry_rsvd = clamp32(user);
  span.exit_rsvd = clamp32(e.arg_uint("exit_user").value_or(user));
  span.entry_record = e.arg_uint("entry_record").value_or(0);
  span.exit_record = e.arg_uint("exit_record").value_or(span.entry_record);
  span.seq = s.entries[span.base]++;

  close_down_to(s, span.depth);
  const Span* parent = s.open.empty() ? nullptr : &s.open.back();
  span.phase = resolve_phase(phases_.phase_of_base, span.base,
                             parent == nullptr ? phases_.other_phase : parent->phase);
  span.root_base = s.open.empty() ? span.base : s.open.front().root_base;
  if (!s.open.empty()) {
    Span& p = s.open.back();
    p.child_ns =
        sat_add(p.child_ns,
                std::max<std::int64_t>(0, sat_sub(std::min(span.end_ns, p.end_ns), span.start_ns)));
  }
  note_record(s, span.exit_record);
  ++s.stats.spans;
  s.stats.first_ns = std::min(s.stats.first_ns, span.start_ns);
  s.stats.last_ns = std::max(s.stats.last_ns, span.end_ns);
  s.open.push_back(span);
  return Ok{};
}

Status OwnEventSpanDecoder::on_unmatched(const TraceEvent& e, Stream& s) {
  std::string_view name = e.name;
  const bool no_exit = strip_suffix(name, kNoExit);
  if (!no_exit) strip_suffix(name, kNoEntry);
  const bool entry = strip_suffix(name, "_ENTRY");
  if (!entry) strip_suffix(name, "_EXIT");
  const auto base = named_base(name, e);
  if (!base) return Ok{};
  UnmatchedEvent u;
  u.track = s.track;
  u.base = *base;
  u.kind = no_exit ? EventKind::kEntry : EventKind::kExit;
  u.record = e.arg_uint("record").value_or(0);
  u.ns = sat_add(origin_ns_, *e.ts_ns);
  u.size = clamp32(e.arg_uint("size").value_or(0));
  if (no_exit) {
    ++s.entries[u.base];
    ++s.stats.unmatched_entries;
  } else {
    ++s.stats.unmatched_exits;
  }
  note_record(s, u.record);
  sink_.on_unmatched(u);
  return Ok{};
}

void OwnEventSpanDecoder::finish() {
  for (auto& [key, s] : streams_) {
    close_down_to(s, 0);
    sink_.end_track(TrackFile{s.track, path_, 0}, s.stats);
  }
}

}  // namespace npkit
