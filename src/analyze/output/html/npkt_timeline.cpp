#include "output/html/npkt_timeline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "npkit/format.hpp"
#include "output/html/svg.hpp"
#include "output/html/timeline_layout.hpp"
#include "run/nccl_names.hpp"
#include "run/nccl_tests_convention.hpp"

namespace npkit::html {
namespace {

enum RowKind : std::uint8_t { kGpuRow, kProxyRow };

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

std::vector<TimelineItem> collect_items(const Communicator& comm, std::int64_t lo,
                                        std::int64_t hi) {
  std::vector<TimelineItem> items;
  for (const RankCapture* capture : comm.ranks) {
    const RankCapture& c = *capture;
    const ProfilerEvents& ev = c.events;
    for (std::uint32_t e = 0; e < ev.size(); ++e) {
      TimelineItem item;
      item.rank = c.rank();
      if (ev.type[e] == format::kTypeKernelCh) {
        const auto p = ev.payload_as<format::KernelChPayload>(e);
        const KernelChVerdict v = c.kernel_channels.verdict[e];
        if (!c.clock.usable() || p.gpu_start_ns == 0 || v != KernelChVerdict::kValid) continue;
        const std::uint64_t stop = kernel_channel_stop(ev, e);
        if (stop == 0) continue;
        item.kind = kGpuRow;
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
        item.kind = kProxyRow;
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

}  // namespace

Timeline npkt_timeline(const Communicator& comm, const InstanceWindow& window,
                       const std::string& title, const std::string& choice, std::size_t max_rows) {
  Timeline t = lay_out_timeline(
      collect_items(comm, window.start_ns, window.end_ns),
      [](std::uint8_t kind, std::optional<std::uint32_t> channel) {
        return fmt::format("{} {}", kind == kGpuRow ? "GPU" : "proxy",
                           channel ? fmt::format("ch {}", *channel) : "(all ch)");
      },
      max_rows);
  t.origin_ns = window.start_ns;
  t.title = title;
  t.note = choice +
           " Drawn: every KernelCh (GPU channel; host time through each rank's clock fit) and "
           "ProxyOp span overlapping the window, so neighbouring operations may show at its "
           "edges. Time axis: after the window's start." +
           t.note;
  return t;
}

}  // namespace npkit::html
