#include "output/html/npkt_timeline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "npkit/format.hpp"
#include "output/html/svg.hpp"
#include "output/trace/trace_lanes.hpp"
#include "run/nccl_names.hpp"
#include "run/nccl_tests_convention.hpp"

namespace npkit::html {
namespace {

enum class RowKind : std::uint8_t { kGpu, kProxy };

struct Item {
  std::size_t rank_index = 0;  // index into comm.ranks
  RowKind kind = RowKind::kGpu;
  std::uint32_t channel = 0;
  std::int64_t start = 0;
  std::int64_t end = 0;
  std::string category;
  std::string label;
  std::string tooltip;
};

const ProfilerCollective* owner_of(const RankCapture& c, std::uint32_t event) {
  const std::uint32_t parent = c.events.parent[event];
  if (parent == kNoEvent) return nullptr;
  for (const auto& op : c.collectives) {
    if (op.event == parent) return &op;
  }
  return nullptr;
}

std::string op_label(const ProfilerCollective& op) {
  if (is_p2p(op.func)) return fmt::format("{} peer {} #{}", op.func_name, op.peer, op.seq);
  return fmt::format("{} seq {}", op.func_name, op.seq);
}

std::string op_tooltip(const ProfilerCollective& op, std::int32_t nranks) {
  std::string s = fmt::format("{}, {}", op_label(op), format_bytes(static_cast<double>(op.bytes)));
  if (!op.algo.empty() || !op.proto.empty()) s += fmt::format(", {}/{}", op.algo, op.proto);
  if (op.has_gpu_span && op.gpu_duration_ns() > 0 && op.bytes > 0) {
    const double algbw =
        gb_per_s(static_cast<double>(op.bytes), static_cast<double>(op.gpu_duration_ns()));
    s += fmt::format("\noperation GPU span {}, algbw {} GB/s",
                     format_duration(static_cast<double>(op.gpu_duration_ns())),
                     format_number(algbw));
    const auto conv = nccl_tests_convention(coll_key(op.func), static_cast<std::uint32_t>(nranks));
    if (conv) s += fmt::format(", busbw {} GB/s", format_number(algbw * conv->factor));
  }
  return s;
}

std::vector<Item> collect_items(const Communicator& comm, std::int64_t lo, std::int64_t hi) {
  std::vector<Item> items;
  for (std::size_t ri = 0; ri < comm.ranks.size(); ++ri) {
    const RankCapture& c = *comm.ranks[ri];
    const ProfilerEvents& ev = c.events;
    for (std::uint32_t e = 0; e < ev.size(); ++e) {
      Item item;
      item.rank_index = ri;
      if (ev.type[e] == format::kTypeKernelCh) {
        const auto p = ev.payload_as<format::KernelChPayload>(e);
        const KernelChVerdict v = c.kernel_channels.verdict[e];
        if (!c.clock.usable() || p.gpu_start_ns == 0 || v != KernelChVerdict::kValid) continue;
        const std::uint64_t stop = kernel_channel_stop(ev, e);
        if (stop == 0) continue;
        item.kind = RowKind::kGpu;
        item.channel = p.channel;
        item.start = c.clock.to_host_ns(p.gpu_start_ns);
        item.end = std::max(item.start, c.clock.to_host_ns(stop));
        if (item.end < lo || item.start > hi) continue;
        const ProfilerCollective* op = owner_of(c, e);
        item.category = op ? std::string(op->func_name) : "KernelCh";
        item.label = op ? op_label(*op) : "KernelCh";
        item.tooltip = fmt::format("rank {}, GPU channel {}", c.rank(), p.channel);
        if (op) item.tooltip += "\n" + op_tooltip(*op, comm.nranks);
      } else if (ev.type[e] == format::kTypeProxyOp) {
        if (!ev.stopped(e)) continue;
        const auto p = ev.payload_as<format::ProxyOpPayload>(e);
        item.kind = RowKind::kProxy;
        item.channel = p.channel;
        item.start = ev.start_ns[e];
        item.end = std::max(item.start, ev.stop_ns[e]);
        if (item.end < lo || item.start > hi) continue;
        item.category = p.is_send ? "proxy send" : "proxy recv";
        const ProfilerCollective* op = owner_of(c, e);
        item.label = op ? op_label(*op) : "";
        item.tooltip =
            fmt::format("rank {}, proxy channel {}, peer {}, {} step(s) of {}", c.rank(), p.channel,
                        p.peer, p.n_steps, format_bytes(static_cast<double>(p.chunk_size)));
      } else {
        continue;
      }
      items.push_back(std::move(item));
    }
  }
  return items;
}

struct RowKey {
  std::size_t rank_index;
  RowKind kind;
  std::uint32_t channel;  // 0 when channels share rows
  auto tie() const { return std::tie(rank_index, kind, channel); }
  bool operator<(const RowKey& o) const { return tie() < o.tie(); }
};

// Places items on rows: per key, lanes from a LanePacker (capped at `max_lanes`).
Timeline layout(const Communicator& comm, std::vector<Item> items, bool merge_channels,
                std::uint32_t max_lanes, const std::vector<bool>& keep_rank) {
  std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    if (a.start != b.start) return a.start < b.start;
    return a.end > b.end;
  });
  std::map<RowKey, LanePacker> packers;
  std::vector<std::pair<RowKey, std::uint32_t>> placed;
  std::map<RowKey, std::uint32_t> lanes;
  for (const auto& it : items) {
    const RowKey key{it.rank_index, it.kind, merge_channels ? 0 : it.channel};
    const std::uint32_t lane = std::min(packers[key].place(it.start, it.end, true), max_lanes - 1);
    placed.emplace_back(key, lane);
    lanes[key] = std::max(lanes[key], lane + 1);
  }
  Timeline t;
  std::map<std::pair<RowKey, std::uint32_t>, std::uint32_t> row_of;
  std::map<std::size_t, std::uint32_t> group_of;
  for (const auto& [key, n] : lanes) {
    if (!keep_rank[key.rank_index]) continue;
    auto [g, added] = group_of.emplace(key.rank_index, static_cast<std::uint32_t>(t.groups.size()));
    if (added) t.groups.push_back(fmt::format("rank {}", comm.ranks[key.rank_index]->rank()));
    for (std::uint32_t lane = 0; lane < n; ++lane) {
      std::string label = key.kind == RowKind::kGpu ? "GPU" : "proxy";
      label += merge_channels ? " (all ch)" : fmt::format(" ch {}", key.channel);
      if (lane > 0) label += fmt::format(" +{}", lane);
      row_of[{key, lane}] = static_cast<std::uint32_t>(t.rows.size());
      t.rows.push_back({std::move(label), g->second});
    }
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    auto it = row_of.find(placed[i]);
    if (it == row_of.end()) continue;
    Item& item = items[i];
    t.spans.push_back({it->second, item.start, item.end, std::move(item.category),
                       std::move(item.label), std::move(item.tooltip)});
  }
  return t;
}

std::size_t row_count(const std::vector<Item>& items, bool merge_channels,
                      std::uint32_t max_lanes) {
  std::vector<Item> sorted = items;
  std::stable_sort(sorted.begin(), sorted.end(), [](const Item& a, const Item& b) {
    if (a.start != b.start) return a.start < b.start;
    return a.end > b.end;
  });
  std::map<RowKey, LanePacker> packers;
  for (const auto& it : sorted) {
    packers[{it.rank_index, it.kind, merge_channels ? 0 : it.channel}].place(it.start, it.end,
                                                                             true);
  }
  std::size_t rows = 0;
  for (const auto& [key, p] : packers) rows += std::min(p.lanes(), max_lanes);
  return rows;
}

}  // namespace

Timeline npkt_timeline(const Communicator& comm, const InstanceWindow& window,
                       const std::string& title, const std::string& choice, std::size_t max_rows) {
  std::vector<Item> items = collect_items(comm, window.start_ns, window.end_ns);
  std::vector<bool> keep(comm.ranks.size(), true);
  bool merged = false;
  std::size_t rank_step = 1;
  constexpr std::uint32_t kAllLanes = 0xFFFFFFFFu;
  constexpr std::uint32_t kMergedLanes = 4;
  if (row_count(items, false, kAllLanes) > max_rows) {
    merged = true;
    const std::size_t rows = row_count(items, true, kMergedLanes);
    if (rows > max_rows) {
      rank_step = (rows + max_rows - 1) / max_rows;
      for (std::size_t r = 0; r < keep.size(); ++r) keep[r] = r % rank_step == 0;
    }
  }
  Timeline t = layout(comm, std::move(items), merged, merged ? kMergedLanes : kAllLanes, keep);
  t.origin_ns = window.start_ns;
  t.title = title;
  t.note = choice +
           " Drawn: every KernelCh (GPU channel; host time through each rank's clock fit) and "
           "ProxyOp span overlapping the window, so neighbouring operations may show at its "
           "edges. Time axis: after the window's start.";
  if (merged) {
    t.note +=
        " Too many channels to show one row each: each rank's channels share rows (at "
        "most 4 lanes; overlapping spans beyond them are drawn on the last).";
  }
  if (rank_step > 1) t.note += fmt::format(" Only every {}th rank is shown.", rank_step);
  return t;
}

}  // namespace npkit::html
