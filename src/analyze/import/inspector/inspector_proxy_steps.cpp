#include "import/inspector/inspector_proxy_steps.hpp"

#include <array>
#include <limits>

#include "npkit/format.hpp"
#include "util/saturating.hpp"

namespace npkit {
namespace {

struct PhaseSlot {
  std::uint32_t state;
  const char* name;
  std::int64_t ProxyStepBreakdown::*phase;
};

using B = ProxyStepBreakdown;

// A step's three timed phases, in state order: send (the first three), then recv.
constexpr std::array<PhaseSlot, 6> kSlots = {
    PhaseSlot{format::kStateProxyStepSendGpuWait, "ProxyStepSendGPUWait", &B::sync_ns},
    PhaseSlot{format::kStateProxyStepSendPeerWait, "ProxyStepSendPeerWait", &B::sync_ns},
    PhaseSlot{format::kStateProxyStepSendWait, "ProxyStepSendWait", &B::net_send_ns},
    PhaseSlot{format::kStateProxyStepRecvWait, "ProxyStepRecvWait", &B::net_recv_ns},
    PhaseSlot{format::kStateProxyStepRecvFlushWait, "ProxyStepRecvFlushWait", &B::net_recv_ns},
    PhaseSlot{format::kStateProxyStepRecvGpuWait, "ProxyStepRecvGPUWait", &B::sync_ns}};

// µs → ns, saturating (a hostile log's µs may not fit).
std::int64_t ns_of(std::uint64_t us) {
  constexpr auto kMaxUs =
      static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max() / 1000);
  return us > kMaxUs ? std::numeric_limits<std::int64_t>::max()
                     : static_cast<std::int64_t>(us) * 1000;
}

}  // namespace

void add_proxy_steps(ProxyStepBreakdown& b, const InspectorProxyTrace& t) {
  const PhaseSlot* slots = kSlots.data() + (t.send ? 0 : 3);
  for (const auto& step : t.steps) {
    ++b.steps;
    if (!step.total_us) {
      ++b.steps_never_stopped;
      continue;
    }
    const std::int64_t total = ns_of(*step.total_us);
    b.step_ns = sat_add(b.step_ns, total);
    b.not_ring_allreduce_ns = sat_add(b.not_ring_allreduce_ns, total);
    std::int64_t timed = 0;
    for (std::size_t i = 0; i < 3; ++i) {
      if (!step.phase_us[i]) continue;
      const std::int64_t ns = ns_of(*step.phase_us[i]);
      b.*slots[i].phase = sat_add(b.*slots[i].phase, ns);
      StateTime& st = b.states[slots[i].state];
      if (st.name.empty()) st.name = slots[i].name;
      st.ns = sat_add(st.ns, ns);
      ++st.intervals;
      timed = sat_add(timed, ns);
    }
    if (timed < total) b.other_ns = sat_add(b.other_ns, total - timed);
  }
}

}  // namespace npkit
