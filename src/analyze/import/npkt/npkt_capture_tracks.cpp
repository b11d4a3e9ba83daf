#include "import/npkt/npkt_capture_tracks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "import/npkt/event_span_reader.hpp"
#include "import/npkt/event_stream_clock.hpp"
#include "import/npkt/profiler_kernel_phases.hpp"
#include "run/nccl_tests_convention.hpp"

namespace npkit {
namespace {

enum class RecordKind : std::uint8_t { kSpan, kInstant, kNoExit, kNoEntry };

// An event record's span, instant or unmatched event, on one time base.
struct RecordItem {
  std::int64_t start = 0;
  std::int64_t end = 0;
  std::size_t stream = 0;  // index into the file's streams
  RecordKind kind = RecordKind::kSpan;
  std::uint16_t base = 0;
  std::uint16_t phase = 0;
  std::uint32_t depth = 0;
  std::uint64_t record = 0;  // the span's ENTRY, or the event's record, in the stream
  std::uint64_t exit_record = 0;
};

// One file's record items by time base.
struct RecordItems {
  const EventFile* file = nullptr;
  std::vector<RecordItem> host;    // on the host clock
  std::vector<RecordItem> timer;   // %globaltimer without a clock fit
  std::vector<RecordItem> cycles;  // clock64
};

class RecordItemCollector : public EventSpanSink {
 public:
  void begin_stream(const EventStreamRef& s, const EventStreamClock& clock) override {
    if (files_.empty() || files_.back().file != s.file) {
      files_.emplace_back();
      files_.back().file = s.file;
    }
    stream_ = s.stream;
    RecordItems& f = files_.back();
    target_ = clock.domain == TimeDomain::kHost           ? &f.host
              : clock.clock == format::kStreamClockCycles ? &f.cycles
                                                          : &f.timer;
  }
  void on_span(const Span& span) override {
    RecordItem item =
        at(span.start_ns, span.end_ns, RecordKind::kSpan, span.base, span.entry_record);
    item.phase = span.phase;
    item.depth = span.depth;
    item.exit_record = span.exit_record;
    target_->push_back(item);
  }
  void on_instant(const EventInstant& e) override {
    target_->push_back(at(e.ns, e.ns, RecordKind::kInstant, e.base, e.record));
  }
  void on_unmatched(const UnmatchedEvent& e) override {
    target_->push_back(at(e.ns, e.ns,
                          e.kind == EventKind::kEntry ? RecordKind::kNoExit : RecordKind::kNoEntry,
                          e.base, e.record));
  }
  std::vector<RecordItems> take() { return std::move(files_); }

 private:
  RecordItem at(std::int64_t start, std::int64_t end, RecordKind kind, std::uint16_t base,
                std::uint64_t record) const {
    RecordItem item;
    item.start = start;
    item.end = std::max(start, end);
    item.stream = stream_;
    item.kind = kind;
    item.base = base;
    item.record = record;
    return item;
  }
  std::vector<RecordItems> files_;
  std::vector<RecordItem>* target_ = nullptr;
  std::size_t stream_ = 0;
};

std::string strip_prefix(std::string name, std::string_view prefix) {
  if (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0) {
    name.erase(0, prefix.size());
  }
  return name;
}

class NpktTrackFile : public CaptureTrackFile {
 public:
  // `file`: the capture's event records (null: none), whose items are `items`.
  NpktTrackFile(const RankCapture& capture, const EventRecords* records, const EventFile* file,
                RecordItems items)
      : c_(capture),
        ev_(capture.events),
        d_(capture.dump),
        records_(records),
        file_(file),
        items_(std::move(items)) {
    fill_facts();
  }

  const CaptureTrackFacts& facts() const override { return facts_; }

  std::vector<TrackSpan> profiler_spans() const override {
    std::vector<TrackSpan> spans;
    for (std::uint32_t e = 0; e < ev_.size(); ++e) {
      TrackSpan span;
      span.handle = e;
      span.order = e;
      span.start = ev_.start_ns[e];
      span.end = ev_.stop_ns[e];
      span.instant = !ev_.stopped(e);
      if (!place(e, span)) continue;
      if (!span.instant) span.end = std::max(span.end, span.start);
      spans.push_back(span);
    }
    return spans;
  }

  std::vector<TrackSpan> record_spans(TraceTimeBase base) const override {
    std::vector<TrackSpan> spans;
    if (items_.file == nullptr) return spans;
    const auto& [items, offset] = records_on(base);
    spans.reserve(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
      const RecordItem& item = items[i];
      TrackSpan span;
      span.start = item.start;
      span.end = item.end;
      span.order = item.record;
      span.handle = static_cast<std::uint32_t>(offset + i);
      span.index = items_.file->dump->stream_numbers[item.stream];
      span.thread = TraceThread::kEventStream;
      span.instant = item.kind != RecordKind::kSpan;
      spans.push_back(span);
    }
    return spans;
  }

  std::string stream_name(const TrackSpan& span) const override {
    return describe_event_stream(*items_.file, record(span.handle).stream);
  }

  void describe(const TrackSpan& span, TrackSpanText& text) const override {
    if (span.thread == TraceThread::kEventStream) {
      describe_record(record(span.handle), text);
    } else {
      describe_event(span, text);
    }
  }

 private:
  void fill_facts() {
    facts_.rank = d_.comm.rank;
    facts_.comm_hash = d_.comm.comm_hash;
    facts_.host = d_.meta("hostname");
    facts_.gpu_clock = c_.clock.describe();
    facts_.profiler_times = !ev_.start_ns.empty();
    for (auto t : ev_.start_ns) facts_.first_ns = std::min(facts_.first_ns, t);
    const bool clock = c_.clock.usable();
    for (std::uint32_t e = 0; e < ev_.size(); ++e) {
      if (ev_.type[e] != format::kTypeKernelCh) continue;
      const auto p = ev_.payload_as<format::KernelChPayload>(e);
      if (!clock || p.gpu_start_ns == 0) {
        ++facts_.kernel_spans_without_clock;
      } else if (!is_stale(c_.kernel_channels.verdict[e])) {
        facts_.first_ns = std::min(facts_.first_ns, c_.clock.to_host_ns(p.gpu_start_ns));
      }
    }
    if (clock) facts_.kernel_spans_stale = c_.kernel_channels.stale();
    if (file_ == nullptr) return;
    for (const auto& stream : d_.streams) {
      const EventStreamClock stream_clock = event_stream_clock(stream, *file_->clock);
      if (!stream_clock.usable) {
        ++facts_.streams_left_out;
      } else if (stream_clock.domain == TimeDomain::kHost) {
        ++facts_.host_clock_streams;
      } else {
        ++facts_.own_clock_streams;
      }
    }
  }

  std::pair<const std::vector<RecordItem>&, std::size_t> records_on(TraceTimeBase base) const {
    if (base == TraceTimeBase::kGpuTimer) return {items_.timer, items_.host.size()};
    if (base == TraceTimeBase::kCycles) {
      return {items_.cycles, items_.host.size() + items_.timer.size()};
    }
    return {items_.host, 0};
  }

  const RecordItem& record(std::uint32_t handle) const {
    if (handle < items_.host.size()) return items_.host[handle];
    handle -= static_cast<std::uint32_t>(items_.host.size());
    if (handle < items_.timer.size()) return items_.timer[handle];
    return items_.cycles[handle - items_.timer.size()];
  }

  // The track of event `e`, and its times where they are not the host's; false: not drawn.
  bool place(std::uint32_t e, TrackSpan& span) const {
    switch (ev_.type[e]) {
      case format::kTypeGroupApi:
      case format::kTypeCollApi:
      case format::kTypeP2pApi:
      case format::kTypeKernelLaunch:
        span.thread = TraceThread::kApi;
        return true;
      case format::kTypeGroup:
      case format::kTypeColl:
      case format::kTypeP2p:
      case format::kTypeCeColl:  // CE events: host spans around the enqueue of the copies
      case format::kTypeCeSync:
      case format::kTypeCeBatch:
        span.thread = TraceThread::kEnqueue;
        return true;
      case format::kTypeProxyCtrl:
        span.thread = TraceThread::kProxyCtrl;
        return true;
      case format::kTypeNetPlugin:
        span.thread = TraceThread::kNet;
        return true;
      case format::kTypeProxyOp:
        span.thread = TraceThread::kProxyChannel;
        span.index = ev_.payload_as<format::ProxyOpPayload>(e).channel;
        return true;
      case format::kTypeProxyStep: {
        const std::uint32_t op = proxy_op_of(e);
        span.thread = op == kNoEvent ? TraceThread::kStepWithoutOp : TraceThread::kProxySteps;
        span.index = op == kNoEvent ? 0 : ev_.payload_as<format::ProxyOpPayload>(op).channel;
        span.leaf = true;
        return true;
      }
      case format::kTypeKernelCh:
        return place_kernel(e, span);
      case format::kTypeKernelPhase:
        return place_phase(e, span);
      default:
        return false;
    }
  }

  // KernelCh spans live on the GPU timeline: converted starts and stops.
  bool place_kernel(std::uint32_t e, TrackSpan& span) const {
    const auto p = ev_.payload_as<format::KernelChPayload>(e);
    if (!c_.clock.usable() || p.gpu_start_ns == 0) return false;
    if (is_stale(c_.kernel_channels.verdict[e])) return false;
    span.thread = TraceThread::kGpuChannel;
    span.index = p.channel;
    span.start = c_.clock.to_host_ns(p.gpu_start_ns);
    const std::uint64_t stop = kernel_channel_stop(ev_, e);
    span.instant = stop == 0;
    span.end = stop == 0 ? span.start : c_.clock.to_host_ns(stop);
    // NCCL's kernel phases (API v7) nest inside their KernelCh span.
    const auto children = ev_.children_of(e);
    span.leaf = std::none_of(children.begin(), children.end(), [&](std::uint32_t child) {
      return ev_.type[child] == format::kTypeKernelPhase;
    });
    return true;
  }

  // A KernelPhase span (API v7): on its KernelCh's GPU channel, when that one is drawn.
  bool place_phase(std::uint32_t e, TrackSpan& span) const {
    const std::uint32_t parent = ev_.parent[e];
    if (parent == kNoEvent || ev_.type[parent] != format::kTypeKernelCh) return false;
    if (!c_.clock.usable() || is_stale(c_.kernel_channels.verdict[parent])) return false;
    const auto p = ev_.payload_as<format::KernelPhasePayload>(e);
    if (p.gpu_start_ns == 0) return false;
    span.thread = TraceThread::kGpuChannel;
    span.index = p.channel;
    span.start = c_.clock.to_host_ns(p.gpu_start_ns);
    const std::uint64_t stop = kernel_phase_stop(ev_, e);
    span.instant = stop == 0;
    span.end = stop == 0 ? span.start : c_.clock.to_host_ns(stop);
    span.leaf = true;
    return true;
  }

  std::uint32_t proxy_op_of(std::uint32_t step) const {
    const std::uint32_t op = ev_.parent[step];
    return op != kNoEvent && ev_.type[op] == format::kTypeProxyOp ? op : kNoEvent;
  }

  // The user tag of a Coll, P2p, CeColl or API event (API v7): its own, else its API parent's.
  std::uint64_t tag_of(std::uint32_t e) const {
    if (e == kNoEvent) return 0;
    const std::uint64_t own = ev_.user_tag(e);
    if (own != 0 || ev_.parent[e] == kNoEvent) return own;
    const std::uint8_t parent = ev_.type[ev_.parent[e]];
    return parent == format::kTypeCollApi || parent == format::kTypeP2pApi
               ? ev_.user_tag(ev_.parent[e])
               : 0;
  }

  // `name` with the user tag of event `e` when it has one: "AllReduce [tag 7]".
  std::string with_tag(std::string name, std::uint32_t e) const {
    const std::uint64_t tag = tag_of(e);
    return tag == 0 ? name : fmt::format("{} [tag {}]", name, tag);
  }

  std::string func_of(std::uint32_t e) const {
    if (e == kNoEvent) return "";
    switch (ev_.type[e]) {
      case format::kTypeColl:
        return d_.string_at(ev_.payload_as<format::CollPayload>(e).func);
      case format::kTypeP2p:
        return d_.string_at(ev_.payload_as<format::P2pPayload>(e).func);
      case format::kTypeCollApi:
        return d_.string_at(ev_.payload_as<format::CollApiPayload>(e).func);
      case format::kTypeP2pApi:
        return d_.string_at(ev_.payload_as<format::P2pApiPayload>(e).func);
      case format::kTypeCeColl:
        return d_.string_at(ev_.payload_as<format::CeCollPayload>(e).func);
      default:
        return "";
    }
  }

  void describe_event(const TrackSpan& span, TrackSpanText& text) const {
    const std::uint32_t e = span.handle;
    const std::uint8_t type = ev_.type[e];
    text.name = profiler_type_name(d_, type);
    text.category = "host";
    switch (type) {
      case format::kTypeColl:
      case format::kTypeP2p:
      case format::kTypeCollApi:
      case format::kTypeP2pApi:
        text.name = with_tag(func_of(e), e);
        text.category = type == format::kTypeColl || type == format::kTypeP2p ? "enqueue" : "api";
        break;
      case format::kTypeGroupApi:
      case format::kTypeKernelLaunch:
        text.category = "api";
        break;
      case format::kTypeGroup:
        text.category = "enqueue";
        break;
      case format::kTypeCeColl:
        text.name = with_tag(func_of(e) + " (CE)", e);
        text.category = "ce";
        break;
      case format::kTypeCeSync:
        text.name = "CE sync";
        text.category = "ce";
        break;
      case format::kTypeCeBatch:
        text.name = "CE batch";
        text.category = "ce";
        break;
      case format::kTypeKernelCh: {
        std::string func = func_of(ev_.parent[e]);
        if (func.empty()) func = profiler_type_name(d_, type);
        text.name = with_tag(std::move(func), ev_.parent[e]);
        text.category = "gpu";
        break;
      }
      case format::kTypeKernelPhase: {
        const std::string& phase =
            d_.string_at(ev_.payload_as<format::KernelPhasePayload>(e).phase_name);
        if (!phase.empty()) text.name = phase;
        text.category = "gpu,phase";
        break;
      }
      case format::kTypeProxyOp:
        text.name =
            ev_.payload_as<format::ProxyOpPayload>(e).is_send ? "ProxyOp send" : "ProxyOp recv";
        text.category = "proxy";
        break;
      case format::kTypeProxyStep: {
        const std::uint32_t op = proxy_op_of(e);
        if (op != kNoEvent) {
          text.name =
              ev_.payload_as<format::ProxyOpPayload>(op).is_send ? "Send step" : "Recv step";
        }
        text.category = "proxy";
        if (!span.instant) step_states(span, text.states);
        break;
      }
      case format::kTypeProxyCtrl:
        if (!ev_.marks(e).empty()) {
          text.name =
              strip_prefix(profiler_state_name(d_, ev_.marks(e).front().state), "ProxyCtrl");
        }
        text.category = "proxy";
        break;
      default:
        break;
    }
    event_args(text.args, e);
  }

  // The step's state intervals as child spans (proxy_step_breakdown.hpp cuts them the same way).
  void step_states(const TrackSpan& step, std::vector<TrackState>& states) const {
    std::int64_t at = step.start;
    const auto marks = ev_.marks(step.handle);
    for (std::size_t i = 0; i < marks.size(); ++i) {
      const std::int64_t from = std::clamp(marks[i].host_ns, at, step.end);
      const std::int64_t to =
          i + 1 < marks.size() ? std::clamp(marks[i + 1].host_ns, from, step.end) : step.end;
      at = to;
      states.push_back({strip_prefix(profiler_state_name(d_, marks[i].state), "ProxyStep"),
                        "proxy,state", from, to});
    }
  }

  // func, seq and size of a Coll or P2p event (the parent of a KernelCh or ProxyOp).
  void collective_args(TraceArgList& a, std::uint32_t e) const {
    if (e == kNoEvent) return;
    if (ev_.type[e] == format::kTypeColl) {
      const auto p = ev_.payload_as<format::CollPayload>(e);
      a.add_string("func", d_.string_at(p.func));
      a.add_uint("seq", p.seq);
      a.add_uint("size", bytes_of(p.func, p.count, p.datatype));
    } else if (ev_.type[e] == format::kTypeP2p) {
      const auto p = ev_.payload_as<format::P2pPayload>(e);
      a.add_string("func", d_.string_at(p.func));
      a.add_int("peer", p.peer);
      a.add_uint("size", bytes_of(p.func, p.count, p.datatype));
    }
  }

  // nccl-tests bytes of `count` elements of `datatype` (string ids) in `func`.
  std::uint64_t bytes_of(std::uint32_t func, std::uint64_t count, std::uint32_t datatype) const {
    return nccl_tests_bytes(parse_nccl_func(d_.string_at(func)), count,
                            nccl_datatype_size(d_.string_at(datatype)), d_.comm.nranks);
  }

  void event_args(TraceArgList& a, std::uint32_t e) const {
    switch (ev_.type[e]) {
      case format::kTypeGroupApi: {
        const auto p = ev_.payload_as<format::GroupApiPayload>(e);
        a.add_int("depth", p.group_depth);
        a.add_uint("graph_captured", p.graph_captured);
        break;
      }
      case format::kTypeCollApi: {
        const auto p = ev_.payload_as<format::CollApiPayload>(e);
        a.add_uint("count", p.count);
        a.add_string("datatype", d_.string_at(p.datatype));
        a.add_int("root", p.root);
        a.add_uint("graph_captured", p.graph_captured);
        break;
      }
      case format::kTypeP2pApi: {
        const auto p = ev_.payload_as<format::P2pApiPayload>(e);
        a.add_uint("count", p.count);
        a.add_string("datatype", d_.string_at(p.datatype));
        a.add_uint("graph_captured", p.graph_captured);
        break;
      }
      case format::kTypeColl: {
        const auto p = ev_.payload_as<format::CollPayload>(e);
        collective_args(a, e);
        a.add_uint("count", p.count);
        a.add_string("datatype", d_.string_at(p.datatype));
        a.add_string("algo", d_.string_at(p.algo));
        a.add_string("proto", d_.string_at(p.proto));
        a.add_uint("channels", p.n_channels);
        a.add_uint("warps", p.n_warps);
        if (const format::CallTagDetail* tag = ev_.call_tag(e)) {
          if (tag->kernel_variant != 0) {
            a.add_string("kernel_variant", d_.string_at(tag->kernel_variant));
          }
          a.add_uint("symmetric", tag->is_sym_coll);
        }
        break;
      }
      case format::kTypeP2p: {
        const auto p = ev_.payload_as<format::P2pPayload>(e);
        collective_args(a, e);
        a.add_uint("count", p.count);
        a.add_string("datatype", d_.string_at(p.datatype));
        break;
      }
      case format::kTypeCeColl:
        ce_coll_args(a, e);
        break;
      case format::kTypeCeSync: {
        const auto p = ev_.payload_as<format::CeSyncPayload>(e);
        a.add_int("ranks", p.n_ranks);
        a.add_uint("is_complete", p.is_complete);
        break;
      }
      case format::kTypeCeBatch: {
        const auto p = ev_.payload_as<format::CeBatchPayload>(e);
        a.add_int("ops", p.num_ops);
        a.add_uint("total_bytes", p.total_bytes);
        a.add_uint("intra_sync", p.use_intra_sync);
        break;
      }
      case format::kTypeKernelCh: {
        const auto p = ev_.payload_as<format::KernelChPayload>(e);
        collective_args(a, ev_.parent[e]);
        a.add_uint("channel", p.channel);
        a.add_uint("gpu_start_ns", p.gpu_start_ns);
        a.add_uint("gpu_stop_ns", kernel_channel_stop(ev_, e));
        break;
      }
      case format::kTypeKernelPhase: {
        const auto p = ev_.payload_as<format::KernelPhasePayload>(e);
        const std::uint32_t kernel = ev_.parent[e];
        collective_args(a, kernel == kNoEvent ? kNoEvent : ev_.parent[kernel]);
        a.add_uint("channel", p.channel);
        a.add_uint("phase", p.phase_id);
        a.add_uint("gpu_start_ns", p.gpu_start_ns);
        a.add_uint("gpu_stop_ns", kernel_phase_stop(ev_, e));
        break;
      }
      case format::kTypeProxyOp: {
        const auto p = ev_.payload_as<format::ProxyOpPayload>(e);
        collective_args(a, ev_.parent[e]);
        a.add_uint("channel", p.channel);
        a.add_int("peer", p.peer);
        a.add_int("steps", p.n_steps);
        a.add_int("chunk_size", p.chunk_size);
        break;
      }
      case format::kTypeProxyStep: {
        a.add_int("step", ev_.payload_as<format::ProxyStepPayload>(e).step);
        std::uint64_t size = 0;
        for (const auto& m : ev_.marks(e)) {
          if (m.state == format::kStateProxyStepSendWait ||
              m.state == format::kStateProxyStepRecvFlushWait) {
            size = m.value;
          }
        }
        a.add_uint("size", size);
        break;
      }
      case format::kTypeNetPlugin:
        a.add_int("plugin_id", ev_.payload_as<format::NetPluginPayload>(e).plugin_id);
        break;
      default:
        break;
    }
    if (ev_.group[e] != kNoEvent) a.add_uint("group", ev_.id[ev_.group[e]]);
    if (const std::uint64_t tag = ev_.user_tag(e); tag != 0) a.add_uint("tag", tag);
    a.add_uint("id", ev_.id[e]);
  }

  void ce_coll_args(TraceArgList& a, std::uint32_t e) const {
    const auto p = ev_.payload_as<format::CeCollPayload>(e);
    a.add_string("func", d_.string_at(p.func));
    a.add_uint("seq", p.seq);
    a.add_uint("size", bytes_of(p.func, p.count, p.datatype));
    a.add_uint("count", p.count);
    a.add_string("datatype", d_.string_at(p.datatype));
    a.add_int("root", p.root);
    a.add_string("sync", d_.string_at(p.sync_strategy));
    a.add_uint("intra_batch_sync", p.intra_batch_sync);
    a.add_uint("ce_seq", p.ce_seq);
    if (const format::CeCollDetail* detail = ev_.ce_detail(e)) {
      a.add_uint("batch_size", detail->batch_size);
      a.add_uint("batches", detail->num_batches);
    }
  }

  void describe_record(const RecordItem& item, TrackSpanText& text) const {
    const EventFile& file = *items_.file;
    const NpktDump& d = *file.dump;
    const format::StreamInfo& info = d.streams[item.stream];
    const format::EventRecord* stream_records = d.event_records.data() + info.first_record;
    const format::EventRecord& r = stream_records[item.record];
    const EventNameSet& names = records_->names;
    text.category = info.source == format::kStreamHostThread ? "host_event" : "gpu_event";
    TraceArgList& a = text.args;
    switch (item.kind) {
      case RecordKind::kSpan: {
        text.name = names.base_names()[item.base];
        const format::EventRecord& exit = stream_records[item.exit_record];
        a.add_string("phase", records_->phases.phase_names[item.phase]);
        a.add_uint("depth", item.depth, TraceArgUse::kRoundTrip);
        a.add_uint("size", r.size);
        if (exit.size != r.size) a.add_uint("exit_size", exit.size);
        a.add_uint("user", r.user);
        if (exit.user != r.user) a.add_uint("exit_user", exit.user);
        a.add_uint("id", r.id);
        a.add_uint("entry_record", item.record, TraceArgUse::kRoundTrip);
        a.add_uint("exit_record", item.exit_record, TraceArgUse::kRoundTrip);
        return;
      }
      case RecordKind::kInstant:
        text.name = names.full_name(file.names, r.id);
        break;
      case RecordKind::kNoExit:
        text.name = names.full_name(file.names, r.id) + " (no EXIT)";
        break;
      case RecordKind::kNoEntry:
        text.name = names.full_name(file.names, r.id) + " (no ENTRY)";
        break;
    }
    a.add_uint("size", r.size);
    a.add_uint("user", r.user);
    a.add_uint("id", r.id);
    a.add_uint("record", item.record);
  }

  const RankCapture& c_;
  const ProfilerEvents& ev_;
  const NpktDump& d_;
  const EventRecords* records_;
  const EventFile* file_;
  RecordItems items_;
  CaptureTrackFacts facts_;
};

}  // namespace

std::unique_ptr<CaptureTrackSet> npkt_capture_tracks(
    const std::vector<const RankCapture*>& captures, const EventRecords* events) {
  std::vector<RecordItems> items;
  if (events != nullptr) {
    RecordItemCollector collector;
    read_event_spans(*events, collector);
    items = collector.take();
  }
  auto set = std::make_unique<CaptureTrackSet>();
  for (const RankCapture* c : captures) {
    const EventFile* file = nullptr;
    if (events != nullptr) {
      for (const auto& f : events->files) {
        if (f.dump == &c->dump) file = &f;
      }
    }
    RecordItems own;
    for (auto& f : items) {
      if (f.file != nullptr && f.file->dump == &c->dump) {
        own = std::move(f);
        break;
      }
    }
    set->files.push_back(std::make_unique<NpktTrackFile>(*c, events, file, std::move(own)));
  }
  if (events != nullptr && !events->empty()) {
    set->has_event_records = true;
    const auto& base = events->names.base_names();
    const auto& hints = events->names.hints();
    for (std::size_t b = 0; b < base.size(); ++b) {
      set->event_names.emplace_back(base[b], b < hints.size() ? hints[b] : std::string());
    }
  }
  return set;
}

}  // namespace npkit
