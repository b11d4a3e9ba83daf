#include "output/html/channel_timeline.hpp"

#include <fmt/format.h>

#include <optional>

#include "output/html/svg.hpp"
#include "output/html/timeline_layout.hpp"
#include "run/measures.hpp"
#include "run/nccl_names.hpp"

namespace npkit::html {
namespace {

enum RowKind : std::uint8_t { kGpuRow, kProxyRow };

std::string op_tooltip(const ChannelOperation& op, std::int32_t nranks) {
  std::string s = fmt::format("{}, {}", op.label, format_bytes(static_cast<double>(op.bytes)));
  if (!op.algo.empty() || !op.proto.empty()) s += fmt::format(", {}/{}", op.algo, op.proto);
  if (op.gpu_span_ns > 0 && op.bytes > 0) {
    const double algbw =
        algbw_gbps(static_cast<double>(op.bytes), static_cast<double>(op.gpu_span_ns));
    s += fmt::format("\noperation GPU span {}, algbw {} GB/s",
                     format_duration(static_cast<double>(op.gpu_span_ns)), format_number(algbw));
    const std::string_view func = nccl_func_name(op.func);
    if (bus_factor(func, nranks)) {
      const double busbw = busbw_gbps(func, nranks, static_cast<double>(op.bytes),
                                      static_cast<double>(op.gpu_span_ns));
      s += fmt::format(", busbw {} GB/s", format_number(busbw));
    }
  }
  return s;
}

TimelineItem item_of(const ChannelSpan& s, std::int32_t nranks) {
  TimelineItem item;
  item.rank = s.rank;
  item.channel = s.channel;
  item.start = s.start_ns;
  item.end = s.end_ns;
  if (s.kind == ChannelSpanKind::kGpu) {
    item.kind = kGpuRow;
    item.category = s.op ? s.op->func_name : "KernelCh";
    item.label = s.op ? s.op->label : "KernelCh";
    item.tooltip = fmt::format("rank {}, GPU channel {}", s.rank, s.channel);
    if (s.op) item.tooltip += "\n" + op_tooltip(*s.op, nranks);
    return item;
  }
  item.kind = kProxyRow;
  item.category = s.kind == ChannelSpanKind::kProxySend ? "proxy send" : "proxy recv";
  item.label = s.op ? s.op->label : "";
  item.tooltip =
      fmt::format("rank {}, proxy channel {}, peer {}, {} step(s) of {}", s.rank, s.channel, s.peer,
                  s.steps, format_bytes(static_cast<double>(s.chunk_bytes)));
  return item;
}

}  // namespace

Timeline channel_timeline(const std::vector<ChannelSpan>& spans, std::int32_t nranks,
                          const InstanceWindow& window, const std::string& title,
                          const std::string& choice, std::size_t max_rows) {
  std::vector<TimelineItem> items;
  items.reserve(spans.size());
  for (const ChannelSpan& s : spans) items.push_back(item_of(s, nranks));
  Timeline t = lay_out_timeline(
      std::move(items),
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
