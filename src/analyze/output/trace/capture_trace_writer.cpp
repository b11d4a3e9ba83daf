#include "output/trace/capture_trace_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string_view>
#include <tuple>

#include "import/npkt/event_stream_clock.hpp"
#include "import/npkt/profiler_kernel_phases.hpp"
#include "npkit/version.hpp"
#include "output/json_writer.hpp"
#include "output/trace/busbw_counters.hpp"
#include "output/trace/event_record_trace_items.hpp"
#include "output/trace/trace_lanes.hpp"
#include "run/nccl_tests_convention.hpp"
#include "run/trace_layout.hpp"
#include "util/saturating.hpp"

namespace npkit {
namespace {

struct GroupRef {
  TraceThread thread = TraceThread::kApi;
  std::uint32_t channel = 0;
  auto operator<=>(const GroupRef&) const = default;
};

struct Item {
  std::int64_t start = 0;
  std::int64_t end = 0;
  GroupRef group;
  std::uint32_t event = 0;
  bool instant = false;
  bool leaf = false;
  bool merged = false;  // on its thread's merged lane (run/trace_layout.hpp)
  std::uint32_t tid = 0;
};

std::string strip_prefix(std::string name, std::string_view prefix) {
  if (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0) {
    name.erase(0, prefix.size());
  }
  return name;
}

std::int64_t earliest(const std::vector<EventItem>& items, std::int64_t bound) {
  for (const auto& item : items) bound = std::min(bound, item.start);
  return bound;
}

class TraceBuilder {
 public:
  TraceBuilder(TraceEncoder& encoder, const TraceTimes& times)
      : trace_(encoder), times_(times), origin_(times.origin_ns) {}

  void begin(const std::string& other_data) { trace_.begin(other_data, times_); }

  void add_capture(const RankCapture& c, std::uint32_t pid,
                   const EventFileItems* events = nullptr) {
    capture_ = &c;
    pid_ = pid;
    std::vector<Item> items = collect_items();
    std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
      return std::tie(a.group, a.start, b.end, a.event) <
             std::tie(b.group, b.start, a.end, b.event);
    });
    std::map<GroupRef, LanePacker> packers;
    std::map<std::uint32_t, std::string> threads;
    for (auto& item : items) {
      auto packer = packers.find(item.group);
      if (packer == packers.end()) {
        packer = packers.emplace(item.group, LanePacker(trace_lanes(item.group.thread))).first;
      }
      const std::uint32_t lane =
          item.instant ? 0 : packer->second.place(item.start, item.end, item.leaf);
      item.merged = !item.instant && lane == trace_lanes(item.group.thread);
      item.tid = trace_tid(item.group.thread, item.group.channel, lane);
      if (threads.count(item.tid) == 0)  // formatted once per thread, not once per event
        threads.emplace(item.tid, trace_thread_name(item.group.thread, item.group.channel, lane));
    }
    std::vector<EventItem> event_items;
    if (events != nullptr) {
      event_items = events->host;
      place_event_items(*events->file, event_items, threads);
    }
    name_threads(process_name(c, TraceTimeBase::kHost), threads);
    // Items on a merged lane that overlap one another become one slice; one alone stays itself.
    std::vector<const Item*> merged;  // by group, then start (the items' order)
    for (const auto& item : items) {
      if (item.merged) {
        merged.push_back(&item);
      } else {
        write_item(item);
      }
    }
    for (std::size_t i = 0; i < merged.size();) {
      std::size_t last = i;
      std::int64_t end = merged[i]->end;
      while (last + 1 < merged.size() && merged[last + 1]->group == merged[i]->group &&
             merged[last + 1]->start < end) {
        end = std::max(end, merged[++last]->end);
      }
      if (last == i) {
        write_item(*merged[i]);
      } else {
        write_merged(*merged[i], last - i + 1, end);
      }
      i = last + 1;
    }
    if (events != nullptr) write_events(*events->file, event_items, 0);
    trace_.close_process(pid_);
  }

  // Streams of a file on their own time base (`clock_label`): a process of their own whose
  // earliest event lies at the trace's first event.
  void add_event_process(const RankCapture& c, const EventFileItems& events,
                         const std::vector<EventItem>& own, TraceTimeBase base, std::uint32_t pid) {
    if (own.empty()) return;
    capture_ = &c;
    pid_ = pid;
    std::vector<EventItem> items = own;
    std::map<std::uint32_t, std::string> threads;
    place_event_items(*events.file, items, threads);
    name_threads(process_name(c, base), threads);
    write_events(*events.file, items, sat_sub(times_.first_ns, earliest(own, INT64_MAX)));
    trace_.close_process(pid_);
  }

  void set_event_records(const EventRecords& records) { records_ = &records; }

  Result<CaptureTraceStats> finish(const std::string& path) {
    NPKIT_TRY(trace_.finish(path));
    stats_.events = trace_.events();
    return stats_;
  }

  void set_kernel_span_counts(std::uint64_t without_clock, std::uint64_t stale) {
    stats_.kernel_spans_without_clock = without_clock;
    stats_.kernel_spans_stale = stale;
  }

 private:
  std::vector<Item> collect_items() {
    const ProfilerEvents& ev = capture_->events;
    std::vector<Item> items;
    for (std::uint32_t e = 0; e < ev.size(); ++e) {
      Item item;
      item.event = e;
      item.start = ev.start_ns[e];
      item.end = ev.stop_ns[e];
      item.instant = !ev.stopped(e);
      switch (ev.type[e]) {
        case format::kTypeGroupApi:
        case format::kTypeCollApi:
        case format::kTypeP2pApi:
        case format::kTypeKernelLaunch:
          item.group = {TraceThread::kApi, 0};
          break;
        case format::kTypeGroup:
        case format::kTypeColl:
        case format::kTypeP2p:
        case format::kTypeCeColl:  // CE events: host spans around the enqueue of the copies
        case format::kTypeCeSync:
        case format::kTypeCeBatch:
          item.group = {TraceThread::kEnqueue, 0};
          break;
        case format::kTypeProxyCtrl:
          item.group = {TraceThread::kProxyCtrl, 0};
          break;
        case format::kTypeNetPlugin:
          item.group = {TraceThread::kNet, 0};
          break;
        case format::kTypeProxyOp:
          item.group = {TraceThread::kProxyChannel,
                        ev.payload_as<format::ProxyOpPayload>(e).channel};
          break;
        case format::kTypeProxyStep: {
          const std::uint32_t op = proxy_op_of(e);
          item.group = op == kNoEvent ? GroupRef{TraceThread::kStepWithoutOp, 0}
                                      : GroupRef{TraceThread::kProxySteps,
                                                 ev.payload_as<format::ProxyOpPayload>(op).channel};
          item.leaf = true;
          break;
        }
        case format::kTypeKernelCh:
          if (!kernel_item(e, item)) continue;
          break;
        case format::kTypeKernelPhase:
          if (!phase_item(e, item)) continue;
          break;
        default:
          continue;
      }
      if (!item.instant) item.end = std::max(item.end, item.start);
      items.push_back(item);
    }
    return items;
  }

  // KernelCh spans live on the GPU timeline: converted starts and stops.
  bool kernel_item(std::uint32_t e, Item& item) {
    const ProfilerEvents& ev = capture_->events;
    const auto p = ev.payload_as<format::KernelChPayload>(e);
    if (!capture_->clock.usable() || p.gpu_start_ns == 0) return false;
    if (is_stale(capture_->kernel_channels.verdict[e])) return false;
    item.group = {TraceThread::kGpuChannel, p.channel};
    item.start = capture_->clock.to_host_ns(p.gpu_start_ns);
    const std::uint64_t stop = kernel_stop(e);
    item.instant = stop == 0;
    item.end = stop == 0 ? item.start : capture_->clock.to_host_ns(stop);
    // NCCL's kernel phases (API v7) nest inside their KernelCh span.
    const auto children = ev.children_of(e);
    item.leaf = std::none_of(children.begin(), children.end(), [&](std::uint32_t c) {
      return ev.type[c] == format::kTypeKernelPhase;
    });
    return true;
  }

  // A KernelPhase span (API v7): on its KernelCh's GPU channel, when that one is drawn.
  bool phase_item(std::uint32_t e, Item& item) {
    const ProfilerEvents& ev = capture_->events;
    const std::uint32_t parent = ev.parent[e];
    if (parent == kNoEvent || ev.type[parent] != format::kTypeKernelCh) return false;
    if (!capture_->clock.usable() || is_stale(capture_->kernel_channels.verdict[parent])) {
      return false;
    }
    const auto p = ev.payload_as<format::KernelPhasePayload>(e);
    if (p.gpu_start_ns == 0) return false;
    item.group = {TraceThread::kGpuChannel, p.channel};
    item.start = capture_->clock.to_host_ns(p.gpu_start_ns);
    const std::uint64_t stop = kernel_phase_stop(ev, e);
    item.instant = stop == 0;
    item.end = stop == 0 ? item.start : capture_->clock.to_host_ns(stop);
    item.leaf = true;
    return true;
  }

  // The user tag of a Coll, P2p, CeColl or API event (API v7): its own, else its API parent's.
  std::uint64_t tag_of(std::uint32_t e) const {
    const ProfilerEvents& ev = capture_->events;
    if (e == kNoEvent) return 0;
    const std::uint64_t own = ev.user_tag(e);
    if (own != 0 || ev.parent[e] == kNoEvent) return own;
    const std::uint8_t parent = ev.type[ev.parent[e]];
    return parent == format::kTypeCollApi || parent == format::kTypeP2pApi
               ? ev.user_tag(ev.parent[e])
               : 0;
  }

  // `name` with the user tag of event `e` when it has one: "AllReduce [tag 7]".
  std::string with_tag(std::string name, std::uint32_t e) const {
    const std::uint64_t tag = tag_of(e);
    return tag == 0 ? name : fmt::format("{} [tag {}]", name, tag);
  }

  std::uint64_t kernel_stop(std::uint32_t e) const {
    return kernel_channel_stop(capture_->events, e);
  }

  std::uint32_t proxy_op_of(std::uint32_t step) const {
    const ProfilerEvents& ev = capture_->events;
    const std::uint32_t op = ev.parent[step];
    return op != kNoEvent && ev.type[op] == format::kTypeProxyOp ? op : kNoEvent;
  }

  static std::string process_name(const RankCapture& c, TraceTimeBase base) {
    const auto& d = c.dump;
    return trace_process_name(d.comm.rank, d.comm.comm_hash, d.meta("hostname"), base);
  }

  void name_threads(const std::string& process,
                    const std::map<std::uint32_t, std::string>& threads) {
    trace_.name_process(pid_, process);
    for (const auto& [tid, name] : threads) trace_.name_thread(pid_, tid, name);
  }

  // func, seq and size of a Coll or P2p event (the parent of a KernelCh or ProxyOp).
  void collective_args(TraceArgList& a, std::uint32_t e) {
    const ProfilerEvents& ev = capture_->events;
    const auto& d = capture_->dump;
    if (e == kNoEvent) return;
    if (ev.type[e] == format::kTypeColl) {
      const auto p = ev.payload_as<format::CollPayload>(e);
      const NcclFunc func = parse_nccl_func(d.string_at(p.func));
      a.add_string("func", d.string_at(p.func));
      a.add_uint("seq", p.seq);
      a.add_uint("size",
                 nccl_tests_bytes(func, p.count, nccl_datatype_size(d.string_at(p.datatype)),
                                  d.comm.nranks));
    } else if (ev.type[e] == format::kTypeP2p) {
      const auto p = ev.payload_as<format::P2pPayload>(e);
      const NcclFunc func = parse_nccl_func(d.string_at(p.func));
      a.add_string("func", d.string_at(p.func));
      a.add_int("peer", p.peer);
      a.add_uint("size",
                 nccl_tests_bytes(func, p.count, nccl_datatype_size(d.string_at(p.datatype)),
                                  d.comm.nranks));
    }
  }

  std::string func_of(std::uint32_t e) const {
    const ProfilerEvents& ev = capture_->events;
    const auto& d = capture_->dump;
    if (e == kNoEvent) return "";
    if (ev.type[e] == format::kTypeColl)
      return d.string_at(ev.payload_as<format::CollPayload>(e).func);
    if (ev.type[e] == format::kTypeP2p)
      return d.string_at(ev.payload_as<format::P2pPayload>(e).func);
    if (ev.type[e] == format::kTypeCollApi)
      return d.string_at(ev.payload_as<format::CollApiPayload>(e).func);
    if (ev.type[e] == format::kTypeP2pApi)
      return d.string_at(ev.payload_as<format::P2pApiPayload>(e).func);
    if (ev.type[e] == format::kTypeCeColl)
      return d.string_at(ev.payload_as<format::CeCollPayload>(e).func);
    return "";
  }

  void write_item(const Item& item) {
    const ProfilerEvents& ev = capture_->events;
    const auto& d = capture_->dump;
    const std::uint32_t e = item.event;
    const std::uint8_t type = ev.type[e];
    std::string name = profiler_type_name(d, type);
    std::string_view cat = "host";
    switch (type) {
      case format::kTypeColl:
      case format::kTypeP2p:
      case format::kTypeCollApi:
      case format::kTypeP2pApi:
        name = with_tag(func_of(e), e);
        cat = type == format::kTypeColl || type == format::kTypeP2p ? "enqueue" : "api";
        break;
      case format::kTypeGroupApi:
      case format::kTypeKernelLaunch:
        cat = "api";
        break;
      case format::kTypeGroup:
        cat = "enqueue";
        break;
      case format::kTypeCeColl:
        name = with_tag(func_of(e) + " (CE)", e);
        cat = "ce";
        break;
      case format::kTypeCeSync:
        name = "CE sync";
        cat = "ce";
        break;
      case format::kTypeCeBatch:
        name = "CE batch";
        cat = "ce";
        break;
      case format::kTypeKernelCh:
        name = func_of(ev.parent[e]);
        if (name.empty()) name = profiler_type_name(d, type);
        name = with_tag(name, ev.parent[e]);
        cat = "gpu";
        break;
      case format::kTypeKernelPhase:
        name = d.string_at(ev.payload_as<format::KernelPhasePayload>(e).phase_name);
        if (name.empty()) name = profiler_type_name(d, type);
        cat = "gpu,phase";
        break;
      case format::kTypeProxyOp:
        name = ev.payload_as<format::ProxyOpPayload>(e).is_send ? "ProxyOp send" : "ProxyOp recv";
        cat = "proxy";
        break;
      case format::kTypeProxyStep: {
        const std::uint32_t op = proxy_op_of(e);
        if (op != kNoEvent) {
          name = ev.payload_as<format::ProxyOpPayload>(op).is_send ? "Send step" : "Recv step";
        }
        cat = "proxy";
        break;
      }
      case format::kTypeProxyCtrl:
        if (!ev.marks(e).empty()) {
          name = strip_prefix(profiler_state_name(d, ev.marks(e).front().state), "ProxyCtrl");
        }
        cat = "proxy";
        break;
      default:
        break;
    }
    if (item.instant) name += " (never stopped)";
    TraceArgList args;
    write_args(args, e);
    write_slice(name, cat, item, item.start, item.end, &args);
    if (type == format::kTypeProxyStep && !item.instant) write_step_states(item);
  }

  // `count` overlapping items from `first` on, on their thread's merged lane, as one slice.
  void write_merged(const Item& first, std::size_t count, std::int64_t end) {
    TraceArgList args;
    args.add_uint("spans", count);
    const std::string name = fmt::format("{} overlapping spans", count);
    write_slice(name, "merged", first, first.start, end, &args);
  }

  void write_args(TraceArgList& a, std::uint32_t e) {
    const ProfilerEvents& ev = capture_->events;
    const auto& d = capture_->dump;
    switch (ev.type[e]) {
      case format::kTypeGroupApi: {
        const auto p = ev.payload_as<format::GroupApiPayload>(e);
        a.add_int("depth", p.group_depth);
        a.add_uint("graph_captured", p.graph_captured);
        break;
      }
      case format::kTypeCollApi: {
        const auto p = ev.payload_as<format::CollApiPayload>(e);
        a.add_uint("count", p.count);
        a.add_string("datatype", d.string_at(p.datatype));
        a.add_int("root", p.root);
        a.add_uint("graph_captured", p.graph_captured);
        break;
      }
      case format::kTypeP2pApi: {
        const auto p = ev.payload_as<format::P2pApiPayload>(e);
        a.add_uint("count", p.count);
        a.add_string("datatype", d.string_at(p.datatype));
        a.add_uint("graph_captured", p.graph_captured);
        break;
      }
      case format::kTypeColl: {
        const auto p = ev.payload_as<format::CollPayload>(e);
        collective_args(a, e);
        a.add_uint("count", p.count);
        a.add_string("datatype", d.string_at(p.datatype));
        a.add_string("algo", d.string_at(p.algo));
        a.add_string("proto", d.string_at(p.proto));
        a.add_uint("channels", p.n_channels);
        a.add_uint("warps", p.n_warps);
        if (const format::CallTagDetail* tag = ev.call_tag(e)) {
          if (tag->kernel_variant != 0) {
            a.add_string("kernel_variant", d.string_at(tag->kernel_variant));
          }
          a.add_uint("symmetric", tag->is_sym_coll);
        }
        break;
      }
      case format::kTypeP2p: {
        const auto p = ev.payload_as<format::P2pPayload>(e);
        collective_args(a, e);
        a.add_uint("count", p.count);
        a.add_string("datatype", d.string_at(p.datatype));
        break;
      }
      case format::kTypeCeColl:
        ce_coll_args(a, e);
        break;
      case format::kTypeCeSync: {
        const auto p = ev.payload_as<format::CeSyncPayload>(e);
        a.add_int("ranks", p.n_ranks);
        a.add_uint("is_complete", p.is_complete);
        break;
      }
      case format::kTypeCeBatch: {
        const auto p = ev.payload_as<format::CeBatchPayload>(e);
        a.add_int("ops", p.num_ops);
        a.add_uint("total_bytes", p.total_bytes);
        a.add_uint("intra_sync", p.use_intra_sync);
        break;
      }
      case format::kTypeKernelCh: {
        const auto p = ev.payload_as<format::KernelChPayload>(e);
        collective_args(a, ev.parent[e]);
        a.add_uint("channel", p.channel);
        a.add_uint("gpu_start_ns", p.gpu_start_ns);
        a.add_uint("gpu_stop_ns", kernel_stop(e));
        break;
      }
      case format::kTypeKernelPhase: {
        const auto p = ev.payload_as<format::KernelPhasePayload>(e);
        const std::uint32_t kernel = ev.parent[e];
        collective_args(a, kernel == kNoEvent ? kNoEvent : ev.parent[kernel]);
        a.add_uint("channel", p.channel);
        a.add_uint("phase", p.phase_id);
        a.add_uint("gpu_start_ns", p.gpu_start_ns);
        a.add_uint("gpu_stop_ns", kernel_phase_stop(ev, e));
        break;
      }
      case format::kTypeProxyOp: {
        const auto p = ev.payload_as<format::ProxyOpPayload>(e);
        collective_args(a, ev.parent[e]);
        a.add_uint("channel", p.channel);
        a.add_int("peer", p.peer);
        a.add_int("steps", p.n_steps);
        a.add_int("chunk_size", p.chunk_size);
        break;
      }
      case format::kTypeProxyStep: {
        a.add_int("step", ev.payload_as<format::ProxyStepPayload>(e).step);
        std::uint64_t size = 0;
        for (const auto& m : ev.marks(e)) {
          if (m.state == format::kStateProxyStepSendWait ||
              m.state == format::kStateProxyStepRecvFlushWait) {
            size = m.value;
          }
        }
        a.add_uint("size", size);
        break;
      }
      case format::kTypeNetPlugin:
        a.add_int("plugin_id", ev.payload_as<format::NetPluginPayload>(e).plugin_id);
        break;
      default:
        break;
    }
    if (ev.group[e] != kNoEvent) a.add_uint("group", ev.id[ev.group[e]]);
    if (const std::uint64_t tag = ev.user_tag(e); tag != 0) a.add_uint("tag", tag);
    a.add_uint("id", ev.id[e]);
  }

  void ce_coll_args(TraceArgList& a, std::uint32_t e) {
    const ProfilerEvents& ev = capture_->events;
    const auto& d = capture_->dump;
    const auto p = ev.payload_as<format::CeCollPayload>(e);
    const NcclFunc func = parse_nccl_func(d.string_at(p.func));
    a.add_string("func", d.string_at(p.func));
    a.add_uint("seq", p.seq);
    a.add_uint("size", nccl_tests_bytes(func, p.count, nccl_datatype_size(d.string_at(p.datatype)),
                                        d.comm.nranks));
    a.add_uint("count", p.count);
    a.add_string("datatype", d.string_at(p.datatype));
    a.add_int("root", p.root);
    a.add_string("sync", d.string_at(p.sync_strategy));
    a.add_uint("intra_batch_sync", p.intra_batch_sync);
    a.add_uint("ce_seq", p.ce_seq);
    if (const format::CeCollDetail* detail = ev.ce_detail(e)) {
      a.add_uint("batch_size", detail->batch_size);
      a.add_uint("batches", detail->num_batches);
    }
  }

  // The step's state intervals as child spans (proxy_step_breakdown.hpp cuts them the same way).
  void write_step_states(const Item& step) {
    const ProfilerEvents& ev = capture_->events;
    std::int64_t at = step.start;
    const auto marks = ev.marks(step.event);
    for (std::size_t i = 0; i < marks.size(); ++i) {
      const std::int64_t from = std::clamp(marks[i].host_ns, at, step.end);
      const std::int64_t to =
          i + 1 < marks.size() ? std::clamp(marks[i + 1].host_ns, from, step.end) : step.end;
      at = to;
      const std::string name =
          strip_prefix(profiler_state_name(capture_->dump, marks[i].state), "ProxyStep");
      write_slice(name, "proxy,state", step, from, to, nullptr);
    }
  }

  void write_slice(std::string_view name, std::string_view cat, const Item& item,
                   std::int64_t start, std::int64_t end, const TraceArgList* args) {
    TraceSlice slice;
    slice.name = name;
    slice.category = cat;
    slice.pid = pid_;
    slice.tid = item.tid;
    slice.instant = item.instant;
    slice.start_ns = sat_sub(start, origin_);
    slice.end_ns = sat_sub(end, origin_);
    slice.args = args;
    trace_.write(slice);
  }

  void write_events(const EventFile& file, const std::vector<EventItem>& items,
                    std::int64_t shift) {
    stats_.event_spans +=
        write_event_items(trace_, pid_, *records_, file, items, sat_sub(shift, origin_));
  }

  TraceEncoder& trace_;
  const EventRecords* records_ = nullptr;
  TraceTimes times_;
  std::int64_t origin_;
  CaptureTraceStats stats_;
  const RankCapture* capture_ = nullptr;
  std::uint32_t pid_ = 0;
};

std::int64_t first_event(const std::vector<const RankCapture*>& captures) {
  std::int64_t origin = INT64_MAX;
  for (const RankCapture* c : captures) {
    for (auto t : c->events.start_ns) origin = std::min(origin, t);
    if (!c->clock.usable()) continue;
    for (std::uint32_t e = 0; e < c->events.size(); ++e) {
      if (c->events.type[e] != format::kTypeKernelCh) continue;
      if (is_stale(c->kernel_channels.verdict[e])) continue;
      const auto p = c->events.payload_as<format::KernelChPayload>(e);
      if (p.gpu_start_ns != 0) origin = std::min(origin, c->clock.to_host_ns(p.gpu_start_ns));
    }
  }
  return origin == INT64_MAX ? 0 : origin;
}

// KernelCh events that cannot be placed on the host clock.
std::uint64_t kernel_spans_without_clock(const std::vector<const RankCapture*>& captures) {
  std::uint64_t n = 0;
  for (const RankCapture* c : captures) {
    for (std::uint32_t e = 0; e < c->events.size(); ++e) {
      if (c->events.type[e] != format::kTypeKernelCh) continue;
      if (!c->clock.usable() || c->events.payload_as<format::KernelChPayload>(e).gpu_start_ns == 0)
        ++n;
    }
  }
  return n;
}

// KernelCh events left out because their timestamps belong to another work item.
std::uint64_t kernel_spans_stale(const std::vector<const RankCapture*>& captures) {
  std::uint64_t n = 0;
  for (const RankCapture* c : captures) {
    if (c->clock.usable()) n += c->kernel_channels.stale();
  }
  return n;
}

}  // namespace

Result<CaptureTraceStats> write_capture_trace(const std::vector<const RankCapture*>& captures,
                                              const EventRecords* events, const Run* run,
                                              const std::string& source, TraceEncoder& encoder,
                                              const std::string& path_for_messages) {
  std::vector<EventFileItems> event_items;
  if (events != nullptr) event_items = collect_event_items(*events);
  const auto items_of = [&](const RankCapture* c) -> const EventFileItems* {
    for (const auto& f : event_items) {
      if (f.file->dump == &c->dump) return &f;
    }
    return nullptr;
  };
  std::int64_t first = first_event(captures);
  std::uint64_t host_streams = 0;
  std::uint64_t own_streams = 0;
  std::uint64_t left_out = 0;
  if (events != nullptr) {
    std::int64_t earliest_event = INT64_MAX;
    for (const auto& f : event_items) earliest_event = earliest(f.host, earliest_event);
    const bool profiler_times = std::any_of(captures.begin(), captures.end(), [](const auto* c) {
      return !c->events.start_ns.empty();
    });
    if (earliest_event != INT64_MAX) {
      first = profiler_times ? std::min(first, earliest_event) : earliest_event;
    }
    for (const auto& f : events->files) {
      for (const auto& stream : f.dump->streams) {
        const EventStreamClock clock = event_stream_clock(stream, *f.clock);
        if (!clock.usable) {
          ++left_out;
        } else if (clock.domain == TimeDomain::kHost) {
          ++host_streams;
        } else {
          ++own_streams;
        }
      }
    }
  }
  std::string other;
  JsonWriter w(other);
  w.begin_object();
  w.field("generator", "npkit-analyze " NPKIT_VERSION_STRING);
  w.field("layout", kTraceLayout);
  w.field("source", source);
  const TraceTimes times = TraceTimes::wall_clock(first);
  w.field("clock", "host wall clock (CLOCK_REALTIME, ns since the epoch)");
  w.field("time_origin_ns", times.origin_ns);
  w.field("first_event_ns", times.first_ns);
  w.field("time_unit",
          "ts and dur are microseconds after time_origin_ns (baseTimeNanoseconds, as PyTorch's "
          "profiler writes it), exact to the nanosecond");
  w.object("gpu_clocks", [&] {
    for (const RankCapture* c : captures) {
      w.field(fmt::format("rank {}, comm {:016x}", c->rank(), c->dump.comm.comm_hash),
              c->clock.describe());
    }
  });
  const std::uint64_t without_clock = kernel_spans_without_clock(captures);
  w.field("kernel_spans_without_clock", without_clock);
  const std::uint64_t stale = kernel_spans_stale(captures);
  w.field("kernel_spans_stale", stale);
  if (events != nullptr && !events->empty()) {
    w.object("event_streams", [&] {
      w.field("host_time_base", host_streams);
      w.field("own_time_base", own_streams);
      w.field("left_out", left_out);
    });
    // What a reader needs to give the spans their phases again: the base names in their
    // numbering, each with the phase hint its files carry ("" for none).
    w.key("event_names");
    w.begin_array();
    for (std::size_t b = 0; b < events->names.base_names().size(); ++b) {
      w.begin_array();
      w.value(events->names.base_names()[b]);
      w.value(b < events->names.hints().size() ? events->names.hints()[b] : std::string());
      w.end_array();
    }
    w.end_array();
  }
  w.end_object();
  while (!other.empty() && other.back() == '\n') other.pop_back();

  TraceBuilder builder(encoder, times);
  builder.set_kernel_span_counts(without_clock, stale);
  if (events != nullptr) builder.set_event_records(*events);
  builder.begin(other);
  for (std::size_t i = 0; i < captures.size(); ++i) {
    builder.add_capture(*captures[i], static_cast<std::uint32_t>(i + 1), items_of(captures[i]));
  }
  for (std::size_t i = 0; i < captures.size(); ++i) {
    const EventFileItems* items = items_of(captures[i]);
    if (items == nullptr) continue;
    const auto number = static_cast<std::uint32_t>(i + 1);
    builder.add_event_process(*captures[i], *items, items->timer, TraceTimeBase::kGpuTimer,
                              trace_pid(number, TraceTimeBase::kGpuTimer));
    builder.add_event_process(*captures[i], *items, items->cycles, TraceTimeBase::kCycles,
                              trace_pid(number, TraceTimeBase::kCycles));
  }
  if (run != nullptr) {
    std::map<std::pair<std::uint64_t, std::int32_t>, std::uint32_t> pids;  // the first file's
    for (std::size_t i = 0; i < captures.size(); ++i) {
      pids.emplace(std::pair(captures[i]->dump.comm.comm_hash, captures[i]->rank()),
                   trace_pid(static_cast<std::uint32_t>(i + 1), TraceTimeBase::kHost));
    }
    write_busbw_counters(
        *run,
        [&](const RunCommunicator& comm, std::int32_t rank) -> std::optional<std::uint32_t> {
          const auto it = pids.find({comm.hash, rank});
          if (it == pids.end()) return std::nullopt;
          return it->second;
        },
        times.origin_ns, encoder);
  }
  return builder.finish(path_for_messages);
}

}  // namespace npkit
