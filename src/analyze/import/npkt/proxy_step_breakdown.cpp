#include "import/npkt/proxy_step_breakdown.hpp"

#include <algorithm>

#include "util/saturating.hpp"

namespace npkit {
namespace {

enum class StepPhase { kNetSend, kNetRecv, kSync, kOther };

StepPhase phase_of(std::uint32_t state) {
  switch (state) {
    case format::kStateProxyStepSendWait:
      return StepPhase::kNetSend;
    case format::kStateProxyStepRecvWait:
    case format::kStateProxyStepRecvFlushWait:
      return StepPhase::kNetRecv;
    case format::kStateProxyStepSendGpuWait:
    case format::kStateProxyStepSendPeerWait:
    case format::kStateProxyStepRecvGpuWait:
      return StepPhase::kSync;
    default:
      return StepPhase::kOther;
  }
}

void add_phase(ProxyStepBreakdown& b, StepPhase phase, std::int64_t ns) {
  std::int64_t* slot = &b.other_ns;
  if (phase == StepPhase::kNetSend) slot = &b.net_send_ns;
  if (phase == StepPhase::kNetRecv) slot = &b.net_recv_ns;
  if (phase == StepPhase::kSync) slot = &b.sync_ns;
  *slot = sat_add(*slot, ns);
}

// How the steps of a ProxyOp map onto ring positions (ring_allreduce false: they do not).
struct RingShape {
  bool ring_allreduce = false;
  std::int64_t transfers_per_step = 1;
  std::int64_t loop = 2;  // 2(n − 1)
};

RingShape ring_shape(const RankCapture& c, std::uint32_t step_event) {
  const ProfilerEvents& ev = c.events;
  RingShape shape;
  const std::uint32_t op = ev.parent[step_event];
  if (op == kNoEvent || ev.type[op] != format::kTypeProxyOp) return shape;
  const std::uint32_t coll = ev.parent[op];
  if (coll == kNoEvent || ev.type[coll] != format::kTypeColl) return shape;
  const auto p = ev.payload_as<format::CollPayload>(coll);
  const std::int32_t n = c.dump.comm.nranks;
  if (n < 2 || parse_nccl_func(c.dump.string_at(p.func)) != NcclFunc::kAllReduce ||
      c.dump.string_at(p.algo) != "RING") {
    return shape;
  }
  shape.ring_allreduce = true;
  shape.transfers_per_step = c.dump.string_at(p.proto) == "SIMPLE" ? 2 : 1;
  shape.loop = 2 * (static_cast<std::int64_t>(n) - 1);
  return shape;
}

}  // namespace

ProxyStepBreakdown proxy_step_breakdown(const RankCapture& c) {
  const ProfilerEvents& ev = c.events;
  ProxyStepBreakdown b;
  for (std::uint32_t e = 0; e < ev.size(); ++e) {
    if (ev.type[e] != format::kTypeProxyStep) continue;
    ++b.steps;
    if (!ev.stopped(e)) {
      ++b.steps_never_stopped;
      continue;
    }
    const std::int64_t start = ev.start_ns[e];
    const std::int64_t stop = std::max(start, ev.stop_ns[e]);
    const std::int64_t duration = sat_sub(stop, start);
    b.step_ns = sat_add(b.step_ns, duration);
    std::int64_t at = start;
    std::int64_t current = -1;  // no state yet
    auto close = [&](std::int64_t until) {
      const std::int64_t ns = sat_sub(until, at);
      if (current < 0) {
        add_phase(b, StepPhase::kOther, ns);
      } else {
        const auto state = static_cast<std::uint32_t>(current);
        add_phase(b, phase_of(state), ns);
        StateTime& t = b.states[state];
        if (t.name.empty()) t.name = profiler_state_name(c.dump, state);
        t.ns = sat_add(t.ns, ns);
        ++t.intervals;
      }
      at = until;
    };
    for (const auto& m : ev.marks(e)) {
      close(std::clamp(m.host_ns, at, stop));
      current = m.state;
    }
    close(stop);

    const RingShape shape = ring_shape(c, e);
    if (!shape.ring_allreduce) {
      b.not_ring_allreduce_ns = sat_add(b.not_ring_allreduce_ns, duration);
      continue;
    }
    ++b.ring_allreduce_steps;
    const auto step = ev.payload_as<format::ProxyStepPayload>(e).step;
    const std::int64_t position = (std::max(step, 0) / shape.transfers_per_step) % shape.loop;
    std::int64_t& slot = position < shape.loop / 2 ? b.reduce_scatter_ns : b.all_gather_ns;
    slot = sat_add(slot, duration);
  }
  return b;
}

}  // namespace npkit
