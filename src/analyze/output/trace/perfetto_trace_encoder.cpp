#include "output/trace/perfetto_trace_encoder.hpp"

#include <algorithm>
#include <tuple>

#include "output/trace/proto_writer.hpp"
#include "util/saturating.hpp"

namespace npkit {
namespace {

// The most bytes one debug annotation takes beside a string value: its tag and length (room for
// a longer length), the name's iid, and the largest value (a pair: two one-element messages).
constexpr std::size_t kMostAnnotation = 64;
// The most bytes an event packet takes beside its annotations: tags, lengths, a timestamp, the
// sequence id, the type and two iids.
constexpr std::size_t kMostEventPacket = 64;

// Field numbers of perfetto/protos (trace.proto, trace_packet.proto, track_event/*.proto,
// interned_data/interned_data.proto, clock_snapshot.proto, trace_packet_defaults.proto).
constexpr std::uint32_t kTracePacket = 1;
namespace packet {
constexpr std::uint32_t kClockSnapshot = 6;
constexpr std::uint32_t kTimestamp = 8;
constexpr std::uint32_t kSequenceId = 10;
constexpr std::uint32_t kTrackEvent = 11;
constexpr std::uint32_t kInternedData = 12;
constexpr std::uint32_t kSequenceFlags = 13;
constexpr std::uint32_t kDefaults = 59;
constexpr std::uint32_t kTrackDescriptor = 60;
constexpr std::uint64_t kStateCleared = 1;
constexpr std::uint64_t kNeedsState = 2;
}  // namespace packet
namespace defaults {
constexpr std::uint32_t kClockId = 58;
constexpr std::uint32_t kTrackEventDefaults = 11;
constexpr std::uint32_t kTrackUuid = 11;  // of TrackEventDefaults
}  // namespace defaults
namespace clock {
constexpr std::uint32_t kClocks = 1;
constexpr std::uint32_t kId = 1;
constexpr std::uint32_t kTimestamp = 2;
constexpr std::uint32_t kIncremental = 3;
constexpr std::uint32_t kPrimaryTraceClock = 2;  // of ClockSnapshot
constexpr std::uint64_t kRealtime = 1;
constexpr std::uint64_t kBoottime = 6;
constexpr std::uint64_t kSequenceClock = 64;  // the first sequence-scoped clock id
}  // namespace clock
namespace track {
constexpr std::uint32_t kUuid = 1;
constexpr std::uint32_t kName = 2;
constexpr std::uint32_t kProcess = 3;
constexpr std::uint32_t kThread = 4;
constexpr std::uint32_t kParentUuid = 5;
constexpr std::uint32_t kCounter = 8;
constexpr std::uint32_t kSiblingOrderRank = 12;
constexpr std::uint32_t kProcessOrdering = 19;  // of the root track (uuid 0)
constexpr std::uint32_t kThreadOrdering = 20;   // of the root track (uuid 0)
constexpr std::uint64_t kExplicitOrder = 1;
constexpr std::uint32_t kPid = 1;          // ProcessDescriptor and ThreadDescriptor
constexpr std::uint32_t kTid = 2;          // ThreadDescriptor
constexpr std::uint32_t kThreadName = 5;   // ThreadDescriptor
constexpr std::uint32_t kProcessName = 6;  // ProcessDescriptor
}  // namespace track
namespace event {
constexpr std::uint32_t kCategoryIids = 3;
constexpr std::uint32_t kDebugAnnotations = 4;
constexpr std::uint32_t kType = 9;
constexpr std::uint32_t kNameIid = 10;
constexpr std::uint32_t kDoubleCounterValue = 44;
constexpr std::uint64_t kSliceBegin = 1;
constexpr std::uint64_t kSliceEnd = 2;
constexpr std::uint64_t kInstant = 3;
constexpr std::uint64_t kCounter = 4;
}  // namespace event
namespace annotation {
constexpr std::uint32_t kNameIid = 1;
constexpr std::uint32_t kUint = 3;
constexpr std::uint32_t kInt = 4;
constexpr std::uint32_t kDouble = 5;
constexpr std::uint32_t kString = 6;
constexpr std::uint32_t kArray = 12;
}  // namespace annotation
// InternedData: event_categories 1, event_names 2, debug_annotation_names 3; each entry iid 1,
// name 2.
constexpr std::uint32_t kInternedField[] = {2, 1, 3};
constexpr std::uint32_t kInternedIid = 1;
constexpr std::uint32_t kInternedName = 2;

std::uint64_t process_uuid(std::uint32_t pid) {
  return std::uint64_t{pid} << 32 | 0xFFFFFFFFu;
}
std::uint64_t thread_uuid(std::uint32_t pid, std::uint32_t tid) {
  return std::uint64_t{pid} << 32 | tid;
}
std::uint64_t counter_uuid(std::uint32_t pid, std::uint64_t index) {
  return (std::uint64_t{pid} << 32 | 0xFFFFFFFEu) - index;
}
// The host time of `at` after the origin, clamped at 0 (a boot time is not negative).
std::uint64_t boot_time(std::int64_t origin_ns, std::int64_t at) {
  return static_cast<std::uint64_t>(std::max<std::int64_t>(0, sat_add(origin_ns, at)));
}

}  // namespace

PerfettoTraceEncoder::PerfettoTraceEncoder(std::ostream& out) : out_(out) {}

PerfettoTraceEncoder::PerfettoTraceEncoder(std::int64_t origin_ns, std::uint64_t clock,
                                           std::uint32_t sequence)
    : origin_ns_(origin_ns), clock_(clock), fragment_sequence_(sequence) {}

std::unique_ptr<TraceEncoder> PerfettoTraceEncoder::fragment(std::uint32_t index) const {
  return std::unique_ptr<TraceEncoder>(new PerfettoTraceEncoder(origin_ns_, clock_, index + 1));
}

void PerfettoTraceEncoder::append(TraceEncoder& fragment) {
  auto& f = static_cast<PerfettoTraceEncoder&>(fragment);
  names_.pass_on(f.names_, *this);
  events_ += f.events_;
  out_.append(f.out_);
}

void PerfettoTraceEncoder::begin(std::string_view /*other_data*/, const TraceTimes& times) {
  origin_ns_ = times.origin_ns;
  if (times.on_wall_clock) {
    // The trace's clock is REALTIME, said before any timestamp is read.
    clock_ = clock::kRealtime;
    nested_.clear();
    proto::uint_field(nested_, clock::kId, clock::kRealtime);
    proto::uint_field(nested_, clock::kTimestamp, boot_time(origin_ns_, 0));
    packet_.clear();
    proto::message(packet_, clock::kClocks, nested_);
    proto::uint_field(packet_, clock::kPrimaryTraceClock, clock::kRealtime);
    event_.clear();
    proto::message(event_, packet::kClockSnapshot, packet_);
    emit_packet(event_);
  }
  packet_.clear();
  proto::uint_field(packet_, track::kUuid, 0);
  proto::uint_field(packet_, track::kProcessOrdering, track::kExplicitOrder);
  proto::uint_field(packet_, track::kThreadOrdering, track::kExplicitOrder);
  event_.clear();
  proto::message(event_, packet::kTrackDescriptor, packet_);
  emit_packet(event_);
}

void PerfettoTraceEncoder::emit_packet(std::string_view body) {
  proto::message(out_.text(), kTracePacket, body);
  ++events_;
  out_.flush_if_full();
}

void PerfettoTraceEncoder::name_process(std::uint32_t pid, std::string_view name) {
  if (!names_.write_now(out_.is_fragment(), {pid, std::nullopt, std::string(name)})) return;
  nested_.clear();
  proto::int_field(nested_, track::kPid, pid);
  proto::bytes_field(nested_, track::kProcessName, name);
  packet_.clear();
  proto::uint_field(packet_, track::kUuid, process_uuid(pid));
  proto::message(packet_, track::kProcess, nested_);
  proto::int_field(packet_, track::kSiblingOrderRank, pid);
  event_.clear();
  proto::message(event_, packet::kTrackDescriptor, packet_);
  emit_packet(event_);
}

void PerfettoTraceEncoder::name_thread(std::uint32_t pid, std::uint32_t tid,
                                       std::string_view name) {
  if (!names_.write_now(out_.is_fragment(), {pid, tid, std::string(name)})) return;
  nested_.clear();
  proto::int_field(nested_, track::kPid, pid);
  proto::int_field(nested_, track::kTid, tid);
  proto::bytes_field(nested_, track::kThreadName, name);
  packet_.clear();
  proto::uint_field(packet_, track::kUuid, thread_uuid(pid, tid));
  proto::uint_field(packet_, track::kParentUuid, process_uuid(pid));
  proto::message(packet_, track::kThread, nested_);
  proto::int_field(packet_, track::kSiblingOrderRank, tid);
  event_.clear();
  proto::message(event_, packet::kTrackDescriptor, packet_);
  emit_packet(event_);
}

std::uint32_t PerfettoTraceEncoder::intern(InternKind kind, std::string_view s, Thread& t) {
  Recent& recent = recent_[kind][recent_string_slot(s)];
  if (recent.iid == 0 || recent.raw != s) {
    auto it = iids_[kind].find(s);
    if (it == iids_[kind].end()) {
      it = iids_[kind]
               .emplace(std::string(s), static_cast<std::uint32_t>(strings_[kind].size() + 1))
               .first;
      strings_[kind].push_back(it->first);
    }
    recent.raw.assign(s);
    recent.iid = it->second;
  }
  const std::uint32_t iid = recent.iid;
  std::vector<std::uint32_t>& used = t.used[kind];
  if (used.size() <= iid) used.resize(iid + 1, 0);
  used[iid] = 1;
  return iid;
}

void PerfettoTraceEncoder::write(const TraceSlice& s) {
  const std::uint64_t uuid = thread_uuid(s.pid, s.tid);
  if (last_thread_ == nullptr || last_uuid_ != uuid) {
    last_thread_ = &threads_[uuid];
    last_uuid_ = uuid;
  }
  Thread& t = *last_thread_;
  t.pid = s.pid;
  t.tid = s.tid;
  Held h;
  h.start = s.start_ns;
  h.end = s.instant ? s.start_ns : std::max(s.start_ns, s.end_ns);
  h.order = static_cast<std::uint32_t>(t.held.size());
  h.name = intern(kEventName, s.name, t);
  h.category = intern(kCategory, s.category, t);
  h.instant = s.instant;
  h.args_offset = static_cast<std::uint32_t>(t.args.size());
  if (s.args != nullptr) {
    std::size_t most = 0;
    for (const TraceArg& a : *s.args) most += kMostAnnotation + a.s.size();
    proto::FieldWriter out(t.args, most);
    for (const TraceArg& a : *s.args) {
      if (a.use == TraceArgUse::kRoundTrip) continue;
      char* const annotation_at = out.open(event::kDebugAnnotations);
      out.uint_field(annotation::kNameIid, intern(kArgName, a.key, t));
      switch (a.kind) {
        case TraceArgKind::kUint:
          out.uint_field(annotation::kUint, a.u);
          break;
        case TraceArgKind::kInt:
          out.int_field(annotation::kInt, a.i);
          break;
        case TraceArgKind::kString:
          out.bytes_field(annotation::kString, a.s);
          break;
        case TraceArgKind::kThousandths:
          out.double_field(annotation::kDouble, static_cast<double>(a.i) / 1000.0);
          break;
        case TraceArgKind::kUintPair:
          for (const std::uint64_t v : {a.u, a.u2}) {
            char* const element_at = out.open(annotation::kArray);
            out.uint_field(annotation::kUint, v);
            out.close(element_at);
          }
          break;
      }
      out.close(annotation_at);
    }
    out.done();
  }
  h.args_size = static_cast<std::uint32_t>(t.args.size() - h.args_offset);
  t.held.push_back(h);
}

void PerfettoTraceEncoder::start_sequence(std::uint32_t sequence, std::uint64_t first,
                                          std::uint64_t track, const std::string* interned) {
  packet_.clear();
  proto::uint_field(packet_, packet::kSequenceId, sequence);
  proto::uint_field(packet_, packet::kSequenceFlags, packet::kStateCleared | packet::kNeedsState);
  if (interned != nullptr) proto::message(packet_, packet::kInternedData, *interned);
  event_.clear();
  for (const auto& [id, incremental] :
       {std::pair{clock::kSequenceClock, true}, std::pair{clock_, false}}) {
    nested_.clear();
    proto::uint_field(nested_, clock::kId, id);
    proto::uint_field(nested_, clock::kTimestamp, first);
    if (incremental) proto::uint_field(nested_, clock::kIncremental, 1);
    proto::message(event_, clock::kClocks, nested_);
  }
  proto::message(packet_, packet::kClockSnapshot, event_);
  nested_.clear();
  proto::uint_field(nested_, defaults::kTrackUuid, track);
  event_.clear();
  proto::uint_field(event_, defaults::kClockId, clock::kSequenceClock);
  proto::message(event_, defaults::kTrackEventDefaults, nested_);
  proto::message(packet_, packet::kDefaults, event_);
  emit_packet(packet_);
}

void PerfettoTraceEncoder::flush_thread(Thread& t) {
  if (t.held.empty()) return;
  std::sort(t.held.begin(), t.held.end(), [](const Held& a, const Held& b) {
    return std::tie(a.start, b.end, a.order) < std::tie(b.start, a.end, b.order);
  });
  const std::uint32_t sequence = fragment_sequence_ ? *fragment_sequence_ : next_sequence_++;
  const std::uint64_t first = boot_time(origin_ns_, t.held[0].start);

  std::string interned;
  for (int kind = 0; kind < kInternKinds; ++kind) {
    const auto& used = t.used[kind];
    for (std::uint32_t iid = 1; iid < used.size(); ++iid) {
      if (used[iid] == 0) continue;
      nested_.clear();
      proto::uint_field(nested_, kInternedIid, iid);
      proto::bytes_field(nested_, kInternedName, strings_[kind][iid - 1]);
      proto::message(interned, kInternedField[kind], nested_);
    }
  }
  start_sequence(sequence, first, thread_uuid(t.pid, t.tid), &interned);

  std::uint64_t last = first;
  const auto emit_event = [&](std::int64_t at, std::uint64_t type, const Held* h) {
    const auto ts = std::max(last, boot_time(origin_ns_, at));
    const std::size_t args = h == nullptr ? 0 : h->args_size;
    proto::FieldWriter out(out_.text(), kMostEventPacket + args);
    char* const packet_at = out.open(kTracePacket);
    out.uint_field(packet::kTimestamp, ts - last);
    last = ts;
    // No SEQ_NEEDS_INCREMENTAL_STATE: a reader applies the sequence's state to every packet;
    // the flag only asks it to drop packets whose state was lost, which a file cannot lose.
    out.uint_field(packet::kSequenceId, sequence);
    char* const event_at = out.open(packet::kTrackEvent);
    out.uint_field(event::kType, type);
    if (h != nullptr) {
      out.uint_field(event::kCategoryIids, h->category);
      out.uint_field(event::kNameIid, h->name);
      out.raw(std::string_view(t.args).substr(h->args_offset, args));
    }
    out.close(event_at);
    out.close(packet_at);
    out.done();
    ++events_;
    out_.flush_if_full();
  };
  std::vector<std::int64_t> open;  // ends of the open slices, innermost last
  for (const Held& h : t.held) {
    while (!open.empty() && open.back() <= h.start) {
      emit_event(open.back(), event::kSliceEnd, nullptr);
      open.pop_back();
    }
    if (h.instant) {
      emit_event(h.start, event::kInstant, &h);
      continue;
    }
    emit_event(h.start, event::kSliceBegin, &h);
    open.push_back(open.empty() ? h.end : std::min(h.end, open.back()));
  }
  while (!open.empty()) {
    emit_event(open.back(), event::kSliceEnd, nullptr);
    open.pop_back();
  }
  t.held.clear();
  t.held.shrink_to_fit();
  t.args.clear();
  t.args.shrink_to_fit();
  for (auto& used : t.used) used.clear();
}

void PerfettoTraceEncoder::count(const TraceCounter& c) {
  counter_name_.assign(c.name);
  counter_name_ += ' ';
  counter_name_.append(c.series);
  std::vector<std::string>& names = counter_names_[c.pid];
  const auto k = static_cast<std::uint64_t>(std::find(names.begin(), names.end(), counter_name_) -
                                            names.begin());
  const std::uint64_t uuid = counter_uuid(c.pid, k);
  Counter& counter = counters_[uuid];
  if (k == names.size()) {
    names.push_back(counter_name_);
    counter.pid = c.pid;
    counter.name = counter_name_;
  }
  counter.samples.emplace_back(c.at_ns, c.thousandths);
}

void PerfettoTraceEncoder::flush_counter(std::uint64_t uuid, Counter& c) {
  if (c.samples.empty()) return;
  if (!c.described) {
    c.described = true;
    packet_.clear();
    proto::uint_field(packet_, track::kUuid, uuid);
    proto::uint_field(packet_, track::kParentUuid, process_uuid(c.pid));
    proto::bytes_field(packet_, track::kName, c.name);
    proto::message(packet_, track::kCounter, "");
    proto::int_field(packet_, track::kSiblingOrderRank, 0);
    event_.clear();
    proto::message(event_, packet::kTrackDescriptor, packet_);
    emit_packet(event_);
  }
  std::stable_sort(c.samples.begin(), c.samples.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  const std::uint32_t sequence = fragment_sequence_ ? *fragment_sequence_ : next_sequence_++;
  std::uint64_t last = boot_time(origin_ns_, c.samples.front().first);
  start_sequence(sequence, last, uuid, nullptr);
  for (const auto& [at, thousandths] : c.samples) {
    const std::uint64_t ts = std::max(last, boot_time(origin_ns_, at));
    event_.clear();
    proto::uint_field(event_, event::kType, event::kCounter);  // on the sequence's default track
    proto::double_field(event_, event::kDoubleCounterValue,
                        static_cast<double>(thousandths) / 1000.0);
    packet_.clear();
    proto::uint_field(packet_, packet::kTimestamp, ts - last);
    proto::uint_field(packet_, packet::kSequenceId, sequence);
    proto::message(packet_, packet::kTrackEvent, event_);
    emit_packet(packet_);
    last = ts;
  }
  c.samples.clear();
  c.samples.shrink_to_fit();
}

void PerfettoTraceEncoder::flush_counters(std::uint64_t from_uuid, std::uint64_t to_uuid) {
  for (auto it = counters_.lower_bound(from_uuid); it != counters_.end() && it->first <= to_uuid;
       ++it) {
    flush_counter(it->first, it->second);
  }
}

void PerfettoTraceEncoder::close_process(std::uint32_t pid) {
  const std::uint64_t first = std::uint64_t{pid} << 32;
  flush_counters(first, first | 0xFFFFFFFFu);
  for (auto it = threads_.lower_bound(first); it != threads_.end() && it->first >> 32 == pid;
       ++it) {
    flush_thread(it->second);
  }
}

Status PerfettoTraceEncoder::finish(const std::string& path) {
  flush_counters(0, UINT64_MAX);
  for (auto& [uuid, t] : threads_) flush_thread(t);
  return out_.finish(path);
}

}  // namespace npkit
