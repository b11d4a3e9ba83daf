#include "import/npkt/operation_progress.hpp"

#include <algorithm>
#include <bit>
#include <set>

#include "npkit/format.hpp"

namespace npkit {
namespace {

void see(std::int64_t ns, std::int64_t& latest) {
  if (ns != kNeverStopped && (latest == kUnknownTime || ns > latest)) latest = ns;
}

// Distinct channel numbers: a bit each below 64 (NCCL's channel limit), a set above.
class ChannelSet {
 public:
  void insert(std::uint32_t channel) {
    if (channel < 64) {
      low_ |= std::uint64_t{1} << channel;
    } else {
      high_.insert(channel);
    }
  }
  std::size_t size() const { return static_cast<std::size_t>(std::popcount(low_)) + high_.size(); }

 private:
  std::uint64_t low_ = 0;
  std::set<std::uint32_t> high_;
};

// The latest host time among `e`'s own records.
void see_event(const ProfilerEvents& ev, std::uint32_t e, std::int64_t& latest) {
  see(ev.start_ns[e], latest);
  see(ev.stop_ns[e], latest);
  for (const auto& m : ev.marks(e)) see(m.host_ns, latest);
}

// The open step furthest along among `op`'s open ProxyOp children.
std::optional<ProxyWait> furthest_open_step(
    const ProfilerEvents& ev, std::uint32_t op,
    const std::function<std::string(std::uint32_t)>& state_name, std::int64_t& latest) {
  std::optional<ProxyWait> best;
  for (auto p : ev.children_of(op)) {
    if (ev.type[p] != format::kTypeProxyOp) continue;
    see_event(ev, p, latest);
    const auto payload = ev.payload_as<format::ProxyOpPayload>(p);
    for (auto s : ev.children_of(p)) {
      if (ev.type[s] != format::kTypeProxyStep) continue;
      see_event(ev, s, latest);
      if (ev.stopped(s) || ev.stopped(p)) continue;
      const std::int64_t step = ev.payload_as<format::ProxyStepPayload>(s).step + 1;
      if (best && best->step >= step) continue;
      ProxyWait w;
      w.channel = payload.channel;
      w.peer = payload.peer;
      w.send = payload.is_send != 0;
      w.step = step;
      w.steps = payload.n_steps;
      const auto marks = ev.marks(s);
      if (!marks.empty()) w.state = state_name(marks.back().state);
      best = w;
    }
  }
  return best;
}

}  // namespace

OperationProgress operation_progress(const ProfilerEvents& ev, const ProfilerCollective& op,
                                     bool kernel_channels_captured,
                                     const std::function<std::string(std::uint32_t)>& state_name) {
  OperationProgress out;
  InFlightDetail& d = out.detail;
  d.channels = is_p2p(op.func) ? 0 : op.n_channels;
  if (op.event == kNoEvent) {
    out.state = op.has_gpu_span ? Progress::kCompleted : Progress::kCompletionUnknown;
    return out;
  }
  if (op.copy_engine) {
    // NCCL records no GPU progress of copy-engine copies: their CeSync/CeBatch children are host
    // spans around the enqueue.
    see_event(ev, op.event, d.last_event_ns);
    for (auto c : ev.children_of(op.event)) see_event(ev, c, d.last_event_ns);
    out.state = Progress::kCompletionUnknown;
    return out;
  }
  // The state first: most operations completed, and their details are not needed.
  ChannelSet started;
  std::uint32_t kernel_events = 0;
  bool all_stopped = true;
  for (auto k : ev.children_of(op.event)) {
    if (ev.type[k] != format::kTypeKernelCh) continue;
    ++kernel_events;
    started.insert(ev.payload_as<format::KernelChPayload>(k).channel);
    all_stopped = all_stopped && ev.stopped(k);
  }
  if (!kernel_channels_captured) {
    out.state = Progress::kCompletionUnknown;
  } else if (kernel_events == 0) {
    out.state = Progress::kEnqueued;
  } else if (all_stopped && started.size() >= d.channels) {
    // The kernel finished; over the network its proxy may still be moving the data.
    std::int64_t latest = kUnknownTime;
    d.proxy = furthest_open_step(ev, op.event, state_name, latest);
    if (!d.proxy) {
      out.state = Progress::kCompleted;
      return out;
    }
    out.state = Progress::kProxyPending;
  } else {
    out.state = Progress::kKernelRunning;
  }
  see_event(ev, op.event, d.last_event_ns);
  std::set<std::uint32_t> running;
  for (auto k : ev.children_of(op.event)) {
    if (ev.type[k] != format::kTypeKernelCh) continue;
    see_event(ev, k, d.last_event_ns);
    if (ev.stopped(k)) {
      ++d.finished;
    } else {
      running.insert(ev.payload_as<format::KernelChPayload>(k).channel);
    }
  }
  d.running.assign(running.begin(), running.end());
  d.proxy = furthest_open_step(ev, op.event, state_name, d.last_event_ns);
  return out;
}

}  // namespace npkit
