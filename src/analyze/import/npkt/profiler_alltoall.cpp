#include "import/npkt/profiler_alltoall.hpp"
#include "run/nccl_tests_convention.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace npkit {
namespace {

// The GroupApi above a P2p event (P2p -> P2pApi -> GroupApi), or kNoEvent.
std::uint32_t group_of(const ProfilerEvents& ev, std::uint32_t p2p) {
  const std::uint32_t api = ev.parent[p2p];
  if (api == kNoEvent || ev.type[api] != format::kTypeP2pApi) return kNoEvent;
  const std::uint32_t group = ev.parent[api];
  if (group == kNoEvent || ev.type[group] != format::kTypeGroupApi) return kNoEvent;
  return group;
}

bool holds_coll_api(const ProfilerEvents& ev, std::uint32_t group) {
  for (auto c : ev.children_of(group)) {
    if (ev.type[c] == format::kTypeCollApi) return true;
  }
  return false;
}

// Every rank of the communicator exactly once, the rank itself included: ncclAlltoAll adds a Send
// and a Recv for every rank, itself too, so a group without them is a plain exchange (at 2 ranks a
// SendRecv to the other rank would otherwise read as an AlltoAll of twice its size).
bool covers_every_rank(const std::vector<std::int32_t>& peers, std::int32_t nranks) {
  std::set<std::int32_t> unique(peers.begin(), peers.end());
  if (unique.size() != peers.size() || unique.size() != static_cast<std::size_t>(nranks)) {
    return false;
  }
  return *unique.begin() == 0 && *unique.rbegin() == nranks - 1;
}

bool is_alltoall(const std::vector<const ProfilerCollective*>& ops, std::int32_t nranks) {
  std::vector<std::int32_t> sends;
  std::vector<std::int32_t> recvs;
  for (const auto* op : ops) {
    if (op->func == NcclFunc::kSend) {
      sends.push_back(op->peer);
    } else if (op->func == NcclFunc::kRecv) {
      recvs.push_back(op->peer);
    } else {
      return false;
    }
    if (op->count != ops.front()->count || op->datatype != ops.front()->datatype) return false;
  }
  std::sort(sends.begin(), sends.end());
  std::sort(recvs.begin(), recvs.end());
  return sends == recvs && covers_every_rank(sends, nranks);
}

}  // namespace

AlltoallScan find_alltoalls(const NpktDump& dump, const ProfilerEvents& ev,
                            const HostGpuClock& clock, const KernelChannelCheck& check,
                            std::vector<ProfilerCollective>& colls) {
  AlltoallScan scan;
  const std::int32_t nranks = dump.comm.nranks;
  std::map<std::uint32_t, std::vector<std::size_t>> groups;  // GroupApi event -> P2p ops
  for (std::size_t i = 0; i < colls.size(); ++i) {
    if (!is_p2p(colls[i].func)) continue;
    ++scan.p2p_events;
    const std::uint32_t g = group_of(ev, colls[i].event);
    if (g == kNoEvent) {
      ++scan.p2p_without_group;
      continue;
    }
    groups[g].push_back(i);
  }
  scan.groups_with_p2p = groups.size();
  for (const auto& [group, members] : groups) {
    std::vector<const ProfilerCollective*> ops;
    for (auto i : members) ops.push_back(&colls[i]);
    if (nranks < 2 || holds_coll_api(ev, group) || !is_alltoall(ops, nranks)) continue;
    ProfilerCollective a;
    a.func = NcclFunc::kAllToAll;
    a.func_name = nccl_func_name(NcclFunc::kAllToAll);
    a.datatype = ops.front()->datatype;
    a.type = ops.front()->type;
    a.count = ops.front()->count;
    a.bytes =
        nccl_tests_bytes(NcclFunc::kAllToAll, a.count, nccl_datatype_size(a.datatype), nranks);
    a.graph_captured = ops.front()->graph_captured;
    a.group_api = group;
    a.api_start_ns = ev.start_ns[group];
    a.host_start_ns = INT64_MAX;
    std::int64_t last_stop = INT64_MIN;
    bool all_stopped = true;
    std::vector<std::uint32_t> kernels;
    for (auto i : members) {
      ProfilerCollective& op = colls[i];
      op.in_alltoall = true;
      a.host_start_ns = std::min(a.host_start_ns, op.host_start_ns);
      all_stopped = all_stopped && op.host_stop_ns != kNeverStopped;
      last_stop = std::max(last_stop, op.host_stop_ns);
      a.n_channels = std::max(a.n_channels, op.n_channels);
      for (auto k : ev.children_of(op.event)) {
        if (ev.type[k] == format::kTypeKernelCh) kernels.push_back(k);
      }
      if (op.peer == dump.comm.rank) {
        ++scan.self_ops;
        if (op.kernel_channels == 0) ++scan.self_ops_without_kernel_channels;
      }
    }
    a.host_stop_ns = all_stopped ? last_stop : kNeverStopped;
    set_gpu_span(ev, clock, check, kernels, a);
    scan.alltoalls.push_back(a);
  }
  std::stable_sort(scan.alltoalls.begin(), scan.alltoalls.end(),
                   [](const auto& x, const auto& y) { return x.host_start_ns < y.host_start_ns; });
  for (std::size_t k = 0; k < scan.alltoalls.size(); ++k) scan.alltoalls[k].seq = k;
  if (scan.alltoalls.empty()) {
    if (scan.p2p_events == 0) {
      scan.reason = "no Send/Recv (P2p) events";
    } else if (scan.p2p_without_group == scan.p2p_events) {
      scan.reason =
          "the P2p events have no P2pApi/GroupApi parents (API events not captured, or profiler "
          "API v4)";
    } else {
      scan.reason =
          "no group holds exactly one Send to and one Recv from every rank, itself included, "
          "with equal counts";
    }
  }
  return scan;
}

std::vector<AlltoallPeerTraffic> alltoall_peer_traffic(
    const std::vector<ProfilerCollective>& collectives, std::int32_t rank) {
  std::map<std::pair<std::int32_t, int>, AlltoallPeerTraffic> rows;  // (peer, 0 send / 1 recv)
  for (const auto& op : collectives) {
    if (!op.in_alltoall) continue;
    const bool send = op.func == NcclFunc::kSend;
    AlltoallPeerTraffic& t = rows[{op.peer, send ? 0 : 1}];
    t.rank = rank;
    t.peer = op.peer;
    t.send = send;
    const std::uint64_t bytes = op.count * nccl_datatype_size(op.datatype);
    ++t.operations;
    t.bytes += bytes;
    if (!op.has_gpu_span) continue;
    ++t.timed;
    t.timed_bytes += bytes;
    t.time_ns = sat_add(t.time_ns, op.gpu_duration_ns());
  }
  std::vector<AlltoallPeerTraffic> out;
  for (auto& [key, t] : rows) {
    t.gbps =
        t.time_ns > 0 ? static_cast<double>(t.timed_bytes) / static_cast<double>(t.time_ns) : 0.0;
    out.push_back(t);
  }
  return out;
}

}  // namespace npkit
