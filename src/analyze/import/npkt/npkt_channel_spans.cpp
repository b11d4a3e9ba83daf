#include "import/npkt/npkt_channel_spans.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "npkit/format.hpp"

namespace npkit {
namespace {

// A rank's operations by their Coll or P2p event (the first where two share one).
using Owners = std::unordered_map<std::uint32_t, const ProfilerCollective*>;

Owners owners_of(const RankCapture& c) {
  Owners owners;
  for (const auto& op : c.collectives) {
    if (op.event != kNoEvent) owners.emplace(op.event, &op);
  }
  return owners;
}

std::optional<ChannelOperation> operation_of(const RankCapture& c, const Owners& owners,
                                             std::uint32_t event) {
  const auto owner = owners.find(c.events.parent[event]);
  if (owner == owners.end()) return std::nullopt;
  const ProfilerCollective* op = owner->second;
  ChannelOperation out;
  out.func = op->func;
  out.func_name = std::string(op->func_name);
  out.label = is_p2p(op->func) ? fmt::format("{} peer {} #{}", op->func_name, op->peer, op->seq)
                               : fmt::format("{} seq {}", op->func_name, op->seq);
  out.bytes = op->bytes;
  out.algo = std::string(op->algo);
  out.proto = std::string(op->proto);
  if (op->has_gpu_span) out.gpu_span_ns = op->gpu_duration_ns();
  return out;
}

// A valid KernelCh event as a GPU span; nullopt where it cannot be placed.
std::optional<ChannelSpan> gpu_span(const RankCapture& c, std::uint32_t e) {
  const auto p = c.events.payload_as<format::KernelChPayload>(e);
  if (!c.clock.usable() || p.gpu_start_ns == 0) return std::nullopt;
  if (c.kernel_channels.verdict[e] != KernelChVerdict::kValid) return std::nullopt;
  const std::uint64_t stop = kernel_channel_stop(c.events, e);
  if (stop == 0) return std::nullopt;
  ChannelSpan s;
  s.kind = ChannelSpanKind::kGpu;
  s.channel = p.channel;
  s.start_ns = c.clock.to_host_ns(p.gpu_start_ns);
  s.end_ns = std::max(s.start_ns, c.clock.to_host_ns(stop));
  return s;
}

std::optional<ChannelSpan> proxy_span(const RankCapture& c, std::uint32_t e) {
  if (!c.events.stopped(e)) return std::nullopt;
  const auto p = c.events.payload_as<format::ProxyOpPayload>(e);
  ChannelSpan s;
  s.kind = p.is_send ? ChannelSpanKind::kProxySend : ChannelSpanKind::kProxyRecv;
  s.channel = p.channel;
  s.start_ns = c.events.start_ns[e];
  s.end_ns = std::max(s.start_ns, c.events.stop_ns[e]);
  s.peer = p.peer;
  s.steps = p.n_steps;
  s.chunk_bytes = p.chunk_size;
  return s;
}

}  // namespace

std::vector<ChannelSpan> npkt_channel_spans(const Communicator& comm, std::int64_t lo_ns,
                                            std::int64_t hi_ns) {
  std::vector<ChannelSpan> out;
  for (const RankCapture* capture : comm.ranks) {
    const RankCapture& c = *capture;
    const Owners owners = owners_of(c);
    for (std::uint32_t e = 0; e < c.events.size(); ++e) {
      std::optional<ChannelSpan> s;
      if (c.events.type[e] == format::kTypeKernelCh) s = gpu_span(c, e);
      if (c.events.type[e] == format::kTypeProxyOp) s = proxy_span(c, e);
      if (!s || s->end_ns < lo_ns || s->start_ns > hi_ns) continue;
      s->rank = c.rank();
      s->op = operation_of(c, owners, e);
      out.push_back(std::move(*s));
    }
  }
  return out;
}

}  // namespace npkit
