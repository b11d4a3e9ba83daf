#include "import/npkt/profiler_collectives.hpp"

#include "import/npkt/profiler_kernel_phases.hpp"
#include "run/nccl_tests_convention.hpp"

#include <algorithm>
#include <bitset>
#include <map>
#include <tuple>

namespace npkit {
namespace {

// The user's data type from an API parent (CollApi or P2pApi), or "" when there is none.
std::string_view api_type(const NpktDump& dump, const ProfilerEvents& ev, std::uint32_t e,
                          bool& graph_captured) {
  const std::uint32_t p = ev.parent[e];
  if (p == kNoEvent) return {};
  if (ev.type[p] == format::kTypeCollApi) {
    const auto api = ev.payload_as<format::CollApiPayload>(p);
    graph_captured = api.graph_captured != 0;
    return dump.string_at(api.datatype);
  }
  if (ev.type[p] == format::kTypeP2pApi) {
    const auto api = ev.payload_as<format::P2pApiPayload>(p);
    graph_captured = api.graph_captured != 0;
    return dump.string_at(api.datatype);
  }
  return {};
}

std::vector<std::uint32_t> kernel_children(const ProfilerEvents& ev, std::uint32_t e) {
  std::vector<std::uint32_t> out;
  for (auto c : ev.children_of(e)) {
    if (ev.type[c] == format::kTypeKernelCh) out.push_back(c);
  }
  return out;
}

// The user tag, kernel variant and symmetric-kernel flag of a Coll, P2p or CeColl event: its own
// call-tag detail, else (the tag) its API parent's.
void set_call_tag(const NpktDump& dump, const ProfilerEvents& ev, std::uint32_t e,
                  ProfilerCollective& c) {
  if (const format::CallTagDetail* tag = ev.call_tag(e)) {
    c.user_tag = tag->user_tag;
    c.kernel_variant = dump.string_at(tag->kernel_variant);
    c.sym_kernel = tag->is_sym_coll != 0;
  }
  const std::uint32_t api = ev.parent[e];
  if (c.user_tag == 0 && api != kNoEvent &&
      (ev.type[api] == format::kTypeCollApi || ev.type[api] == format::kTypeP2pApi)) {
    c.user_tag = ev.user_tag(api);
  }
}

// The GroupApi above a Coll or P2p event, through its CollApi/P2pApi parent, or kNoEvent.
std::uint32_t group_api_of(const ProfilerEvents& ev, std::uint32_t e) {
  const std::uint32_t api = ev.parent[e];
  if (api == kNoEvent) return kNoEvent;
  if (ev.type[api] != format::kTypeCollApi && ev.type[api] != format::kTypeP2pApi) {
    return kNoEvent;
  }
  const std::uint32_t group = ev.parent[api];
  if (group == kNoEvent || ev.type[group] != format::kTypeGroupApi) return kNoEvent;
  return group;
}

}  // namespace

void set_gpu_span(const ProfilerEvents& ev, const HostGpuClock& clock,
                  const KernelChannelCheck& check, std::span<const std::uint32_t> kernel_channels,
                  ProfilerCollective& c) {
  std::bitset<256> channels;
  std::uint64_t first = UINT64_MAX;
  std::uint64_t last = 0;
  std::uint64_t latest_start = 0;
  std::uint64_t earliest_stop = UINT64_MAX;
  std::uint32_t valid = 0;
  c.kernel_channels = static_cast<std::uint32_t>(kernel_channels.size());
  c.channels_open = 0;
  c.channels_stale = 0;
  for (auto k : kernel_channels) {
    const auto p = ev.payload_as<format::KernelChPayload>(k);
    channels.set(p.channel);
    const KernelChVerdict v = check.verdict[k];
    if (v == KernelChVerdict::kOpen) {
      ++c.channels_open;
      continue;
    }
    if (is_stale(v)) {
      ++c.channels_stale;
      continue;
    }
    const std::uint64_t stop = kernel_channel_stop(ev, k);
    ++valid;
    first = std::min(first, p.gpu_start_ns);
    last = std::max(last, stop);
    latest_start = std::max(latest_start, p.gpu_start_ns);
    earliest_stop = std::min(earliest_stop, stop);
  }
  c.channels_disjoint = c.channels_open == 0 && valid > 0 && latest_start > earliest_stop;
  c.channels_seen = static_cast<std::uint32_t>(channels.count());
  c.has_valid_channels = clock.usable() && valid > 0;
  if (c.has_valid_channels) {
    c.valid_channels_start_ns = clock.to_host_ns(first);
    c.valid_channels_stop_ns = clock.to_host_ns(last);
  }
  c.has_gpu_span = clock.usable() && c.channels_open == 0 && c.channels_stale == 0 && valid > 0;
  if (c.has_gpu_span) {
    c.gpu_start_ns = clock.to_host_ns(first);
    c.gpu_stop_ns = clock.to_host_ns(last);
  }
}

std::vector<ProfilerCollective> collect_collectives(const NpktDump& dump, const ProfilerEvents& ev,
                                                    const HostGpuClock& clock,
                                                    const KernelChannelCheck& check) {
  std::vector<ProfilerCollective> out;
  const std::int32_t nranks = dump.comm.nranks;
  for (std::uint32_t e = 0; e < ev.size(); ++e) {
    const bool coll = ev.type[e] == format::kTypeColl;
    const bool ce = ev.type[e] == format::kTypeCeColl;
    if (!coll && !ce && ev.type[e] != format::kTypeP2p) continue;
    ProfilerCollective c;
    c.event = e;
    if (ce) {
      const auto p = ev.payload_as<format::CeCollPayload>(e);
      c.copy_engine = true;
      c.func_name = dump.string_at(p.func);
      c.datatype = dump.string_at(p.datatype);
      c.algo = "CE";
      c.proto = dump.string_at(p.sync_strategy);
      c.seq = p.seq;
      c.count = p.count;
      c.root = p.root;
    } else if (coll) {
      const auto p = ev.payload_as<format::CollPayload>(e);
      c.func_name = dump.string_at(p.func);
      c.datatype = dump.string_at(p.datatype);
      c.algo = dump.string_at(p.algo);
      c.proto = dump.string_at(p.proto);
      c.seq = p.seq;
      c.count = p.count;
      c.root = p.root;
      c.n_channels = p.n_channels;
      c.n_warps = p.n_warps;
    } else {
      const auto p = ev.payload_as<format::P2pPayload>(e);
      c.func_name = dump.string_at(p.func);
      c.datatype = dump.string_at(p.datatype);
      c.count = p.count;
      c.peer = p.peer;
      c.n_channels = p.n_channels;
    }
    c.func = parse_nccl_func(c.func_name);
    c.type = api_type(dump, ev, e, c.graph_captured);
    if (c.type.empty()) c.type = c.datatype;
    c.bytes = nccl_tests_bytes(c.func, c.count, nccl_datatype_size(c.datatype), nranks);
    c.host_start_ns = ev.start_ns[e];
    c.host_stop_ns = ev.stop_ns[e];
    const std::uint32_t api = api_ancestor(ev, e);
    c.api_start_ns = api == kNoEvent ? c.host_start_ns : ev.start_ns[api];
    c.group_api = group_api_of(ev, e);
    const auto kernels = kernel_children(ev, e);
    set_gpu_span(ev, clock, check, kernels, c);
    if (c.has_gpu_span) c.kernel_phases = kernel_phase_times(ev, clock, kernels);
    set_call_tag(dump, ev, e, c);
    out.push_back(c);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.host_start_ns < b.host_start_ns; });
  std::map<std::tuple<std::string_view, std::int32_t>, std::uint64_t> p2p_counters;
  for (auto& c : out) {
    if (ev.type[c.event] == format::kTypeP2p) {
      c.seq = p2p_counters[{c.func_name, c.peer}]++;
    }
  }
  return out;
}

}  // namespace npkit
